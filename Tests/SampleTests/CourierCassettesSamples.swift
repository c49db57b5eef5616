import Courier
import CourierCassettes
import Foundation

/// The samples of the `CourierCassettes` module (its `///` examples and its DocC catalog), each
/// in the context it takes for granted. Nothing calls them: the build compiles them.
enum CourierCassettesSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - CourierCassettes.docc/CourierCassettes.md

    static func overview(transport: some HTTPTransport) async throws {
        let recorder = CassetteRecorder()
        let client = HTTPClient(transport: transport, configuration: .init(middleware: [recorder]))
        _ = try await client.send(Endpoint<Data>(url: URL(string: "https://example.com/feed.json")!))
        try recorder.cassette.write(to: URL(fileURLWithPath: "feed-cassette.json"))
    }

    // MARK: - CourierCassettes.docc/RecordingAndReplaying.md

    static func recording(transport: some HTTPTransport) async throws {
        let recorder = CassetteRecorder()
        let client = HTTPClient(transport: transport, configuration: .init(middleware: [recorder]))
        _ = try await client.send(client.prepare(Endpoint<Data>(url: URL(string: "https://example.com/feed.json")!)))
        try recorder.cassette.write(to: URL(fileURLWithPath: "feed-cassette.json"))
    }

    static func replaying() throws {
        let cassette = try Cassette.load(from: URL(fileURLWithPath: "feed-cassette.json"))
        let offline = HTTPClient(transport: ReplayTransport(cassette))
        keep(offline)
    }

    // MARK: - CassetteRecorder.swift

    static func cassetteRecorder(transport: some HTTPTransport, endpoint: Endpoint<Data>) async throws {
        let recorder = CassetteRecorder()
        let client = HTTPClient(transport: transport, configuration: .init(middleware: [recorder]))
        _ = try await client.send(endpoint)
        try recorder.cassette.write(to: URL(fileURLWithPath: "Fixtures/movies.json"))
    }

    // MARK: - ReplayTransport.swift

    static func replayTransport(fixtureURL: URL) throws {
        let transport = ReplayTransport(try Cassette.load(from: fixtureURL))
        let client = HTTPClient(transport: transport)
        keep(client)
    }

    // MARK: - RecordedOrigins.swift

    static func recordedOrigins(cassette: Cassette) {
        let origins = RecordedOrigins(cassette)
        let replayed = origins.rewriting(cassette.interactions[0].response, to: "http://127.0.0.1:18700")
        keep(replayed)
    }
}
