import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

/// A connection that closes before any of the response arrived: what a client meets when it
/// reuses a pooled connection just as the server's idle timeout closes it.
@Suite(.loadLimited)
struct ConnectionReuseTests {
    private static let answered = ScriptedHTTPServer.json(#"{"ok":true}"#)

    private func withClient<Result>(
        answers: [[UInt8]],
        _ body: (HTTPClient, ScriptedHTTPServer) async throws -> Result
    ) async throws -> Result {
        try await ScriptedHTTPServer.withRunning(answers: answers) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let configuration = HTTPClient.Configuration(timeout: .seconds(60))
                return try await body(HTTPClient(transport: transport, configuration: configuration), server)
            }
        }
    }

    @Test(arguments: [HTTPRequest.Method.get, .put, .delete])
    func aRepeatableRequestIsSentAgainOnANewConnection(_ method: HTTPRequest.Method) async throws {
        try await withClient(answers: [[], Self.answered]) { client, server in
            let endpoint = Endpoint<Data>(
                method: method,
                url: server.url("/a"),
                body: .data(Data("x".utf8))
            )
            let body = try await client.send(endpoint)
            #expect(String(decoding: body, as: UTF8.self) == #"{"ok":true}"#)
            #expect(server.requestLines == Array(repeating: "\(method) /a HTTP/1.1", count: 2))
        }
    }

    @Test func aPostIsNotSentTwice() async throws {
        try await withClient(answers: [[], Self.answered]) { client, server in
            let endpoint = Endpoint<Data>(method: .post, url: server.url("/a"), body: .data(Data("x".utf8)))
            let error = await #expect(throws: RequestError.self) { try await client.send(endpoint) }
            #expect(error?.transportFailure?.kind == .connectionLost)
            #expect(server.requestLines == ["POST /a HTTP/1.1"])
        }
    }

    @Test func aPostWithAnIdempotencyKeyIsRepeatable() async throws {
        try await withClient(answers: [[], Self.answered]) { client, server in
            let endpoint = Endpoint<Data>(
                method: .post,
                url: server.url("/a"),
                headers: [HTTPField.Name("Idempotency-Key")!: "order-17"],
                body: .data(Data("x".utf8))
            )
            _ = try await client.send(endpoint)
            #expect(server.requestLines.count == 2)
        }
    }

    /// A body read from a sequence cannot be sent again, whatever the method.
    @Test func aPutOfAStreamIsNotSentTwice() async throws {
        try await withClient(answers: [[], Self.answered]) { client, server in
            let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                continuation.yield(Data("x".utf8))
                continuation.finish()
            }
            let endpoint = Endpoint<Data>(
                method: .put,
                url: server.url("/a"),
                body: .stream(chunks, length: 1)
            )
            let error = await #expect(throws: RequestError.self) { try await client.send(endpoint) }
            #expect(error?.transportFailure?.kind == .connectionLost)
            #expect(server.requestLines == ["PUT /a HTTP/1.1"])
        }
    }

    @Test func aSecondLossIsTheCallersToRetry() async throws {
        try await withClient(answers: [[], [], Self.answered]) { client, server in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Data>(url: server.url("/a")))
            }
            #expect(error?.transportFailure?.kind == .connectionLost)
            #expect(server.requestLines.count == 2)
        }
    }
}
