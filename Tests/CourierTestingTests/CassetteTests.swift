import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

struct CassetteTests {
    @Test func textAndBinaryBodiesRoundTripThroughJSON() throws {
        let cassette = Cassette(interactions: [
            .init(
                request: .init(
                    method: "POST",
                    url: "https://api.test/upload",
                    headers: [["Content-Type", "image/png"]],
                    body: .init(Data([0x89, 0x50, 0xFF]))
                ),
                response: .init(
                    status: 201,
                    headers: [["Content-Type", "application/json"]],
                    body: .init(Data(#"{"id":1}"#.utf8))
                )
            )
        ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try cassette.write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#""base64" : "iVD/""#))
        #expect(text.contains(#""body" : "{\"id\":1}""#))
        #expect(try Cassette.load(from: file) == cassette)
    }

    @Test func theRecorderRedactsCredentials() async throws {
        let stub = StubTransport()
        stub.on(.get, "/movies", .json(#"{"page":1}"#))
        let recorder = CassetteRecorder()
        let client = HTTPClient(transport: stub, configuration: .init(middleware: [recorder]))
        _ = try await client.send(
            Endpoint<Data>(
                url: URL(string: "https://api.test/movies?api_key=abc123&page=1")!,
                headers: [.authorization: "Bearer t0k3n"]
            )
        )
        let request = try #require(recorder.cassette.interactions.first?.request)
        #expect(request.url == "https://api.test/movies?api_key=REDACTED&page=1")
        #expect(request.headers.contains(["Authorization", "REDACTED"]))
        #expect(recorder.cassette.interactions.first?.response.body?.data == Data(#"{"page":1}"#.utf8))
    }

    @Test func replayMatchesMethodURLAndBodyInRecordedOrder() async throws {
        let cassette = Cassette(interactions: [
            .init(
                request: .init(method: "GET", url: "https://api.test/n"),
                response: .init(status: 200, body: .init(Data("one".utf8)))
            ),
            .init(
                request: .init(method: "GET", url: "https://api.test/n"),
                response: .init(status: 200, body: .init(Data("two".utf8)))
            ),
            .init(
                request: .init(method: "POST", url: "https://api.test/n", body: .init(Data("x".utf8))),
                response: .init(status: 201, body: .init(Data("made".utf8)))
            ),
        ])
        let client = HTTPClient(transport: ReplayTransport(cassette))
        let url = try #require(URL(string: "https://api.test/n"))
        #expect(try await client.send(Endpoint<Data>(url: url)) == Data("one".utf8))
        #expect(try await client.send(Endpoint<Data>(url: url)) == Data("two".utf8))
        #expect(try await client.send(Endpoint<Data>(url: url)) == Data("two".utf8))
        #expect(
            try await client.send(
                Endpoint<Data>(method: .post, url: url, body: .data(Data("x".utf8), contentType: "text/plain"))
            ) == Data("made".utf8)
        )

        let error = await #expect(throws: RequestError.self) {
            try await client.send(
                Endpoint<Data>(method: .post, url: url, body: .data(Data("y".utf8), contentType: "text/plain"))
            )
        }
        #expect(
            error?.message.contains(
                "the cassette has no recording of it (it holds GET https://api.test/n, GET https://api.test/n, POST https://api.test/n)"
            ) == true
        )
    }
}
