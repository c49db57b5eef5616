import CourierCassettes
import CourierReplay
import Foundation

/// The samples of the `CourierReplay` module. Nothing calls them: the build compiles them.
enum CourierReplaySamples {
    // MARK: - ReplayServer.swift

    static func replayServer() async throws {
        let cassette = try Cassette.load(from: URL(fileURLWithPath: "movies.json"))
        let server = ReplayServer(cassette, host: "127.0.0.1")
        try await server.run(port: 9000) { url in print("Replaying on \(url)") }
    }
}
