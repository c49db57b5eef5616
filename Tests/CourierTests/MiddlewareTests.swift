import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import Synchronization
import Testing

@testable import Courier

@Suite("Middleware", .loadLimited)
struct MiddlewareTests {
    // MARK: - Authentication

    @Test func bearerTokenAndAPIKeys() async throws {
        let stub = StubTransport()
        stub.on(nil, "/*", .status(.noContent))
        let endpoint = Endpoint<Void>(
            host: "api.test",
            path: "/3/movie/550",
            query: [URLQueryItem(name: "language", value: "en")]
        )

        try await HTTPClient(transport: stub, configuration: .init(middleware: [Authentication.bearer("t0k")])).send(
            endpoint
        )
        try await HTTPClient(transport: stub, configuration: .init(middleware: [Authentication.apiKey("k&y")])).send(
            endpoint
        )
        let header = try #require(HTTPField.Name("X-API-Key"))
        try await HTTPClient(
            transport: stub,
            configuration: .init(middleware: [Authentication.apiKey("abc", header: header)])
        ).send(endpoint)

        let requests = stub.requests
        #expect(requests[0].head.headerFields[.authorization] == "Bearer t0k")
        #expect(requests[1].url == "https://api.test/3/movie/550?language=en&api_key=k%26y")
        #expect(requests[1].summary.url == "https://api.test/3/movie/550?language=en&api_key=REDACTED")
        #expect(requests[2].head.headerFields[header] == "abc")
    }

    // MARK: - Retry

    /// A client that retries with a 1 ms base delay, so tests do not wait.
    static func retrying(_ stub: StubTransport, maxAttempts: Int) -> HTTPClient {
        HTTPClient(
            transport: stub,
            configuration: .init(middleware: [Retry(maxAttempts: maxAttempts, baseDelay: .milliseconds(1))])
        )
    }

    @Test func retriesIdempotentRequestsOnTransientStatuses() async throws {
        let stub = StubTransport()
        let attempts = Mutex(0)
        stub.on(.get, "/flaky") { _ throws(RequestError) in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            return attempt < 3 ? .text("busy", status: .serviceUnavailable) : .json(#"{"ok": true}"#)
        }
        let client = Self.retrying(stub, maxAttempts: 3)
        let value = try await client.send(Endpoint<JSONValue>(host: "t", path: "/flaky"))
        #expect(value["ok"] == .bool(true))
        #expect(stub.requests.count == 3)
    }

    /// An offline request stays off the network: asking again cannot change its answer, and a
    /// cache's 504 comes back at once.
    @Test func offlineRequestsAreNotRetried() async throws {
        let stub = StubTransport()
        stub.on(.get, "/offline", .text("nothing stored", status: .gatewayTimeout))
        let client = HTTPClient(
            transport: stub,
            configuration: .init(middleware: [Retry(maxAttempts: 3, baseDelay: .seconds(60))], cache: try HTTPCache())
        )
        for endpoint in [
            Endpoint<Data>(host: "t", path: "/offline").usingCachePolicy(.returnCacheDontLoad),
            Endpoint<Data>(host: "t", path: "/offline", headers: [.cacheControl: "only-if-cached"]),
        ] {
            let response = try await client.send(client.prepare(endpoint))
            #expect(response.status == 504)
        }
        #expect(stub.requests.isEmpty)
        #expect(
            Retry.isOffline(
                try client.prepare(Endpoint<Data>(host: "t", path: "/x").usingCachePolicy(.returnCacheDontLoad))
            )
        )
        #expect(!Retry.isOffline(try client.prepare(Endpoint<Data>(host: "t", path: "/x"))))
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        let stub = StubTransport()
        stub.on(.get, "/down", .text("down", status: .badGateway))
        let client = Self.retrying(stub, maxAttempts: 4)
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Void>(host: "t", path: "/down"))
        }
        #expect(error?.shortDescription == "http_502")
        #expect(stub.requests.count == 4)
    }

    @Test func neverRetriesNonIdempotentMethodsWithoutAnIdempotencyKey() async throws {
        let stub = StubTransport()
        stub.on(.post, "/orders", .text("busy", status: .serviceUnavailable))
        let client = Self.retrying(stub, maxAttempts: 3)
        await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Void>(method: .post, host: "t", path: "/orders"))
        }
        #expect(stub.requests.count == 1)

        stub.clearRequests()
        let key = try #require(HTTPField.Name("Idempotency-Key"))
        await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Void>(method: .post, host: "t", path: "/orders", headers: [key: "order-17"]))
        }
        #expect(stub.requests.count == 3)
    }

    @Test func retriesTransientTransportFailuresOnly() async throws {
        let stub = StubTransport()
        let summary = RequestSummary(method: "GET", url: "https://t/")
        stub.on(.get, "/reset", .failure(.transport(TransportFailure(.connectionLost, request: summary))))
        stub.on(.get, "/dns", .failure(.transport(TransportFailure(.hostNotFound, request: summary))))
        stub.on(.get, "/404", .text("nope", status: .notFound))
        let client = Self.retrying(stub, maxAttempts: 3)
        for path in ["/reset", "/dns", "/404"] {
            await #expect(throws: RequestError.self) { try await client.send(Endpoint<Void>(host: "t", path: path)) }
        }
        #expect(stub.requests.map { $0.head.path ?? "" } == ["/reset", "/reset", "/reset", "/dns", "/404"])
    }

    @Test func honoursRetryAfterWithinTheLimitOnly() async throws {
        let stub = StubTransport()
        stub.on(.get, "/soon", .status(.tooManyRequests, headers: [.retryAfter: "0"]))
        stub.on(.get, "/later", .status(.tooManyRequests, headers: [.retryAfter: "3600"]))
        let client = HTTPClient(
            transport: stub,
            configuration: .init(middleware: [Retry(maxAttempts: 2, baseDelay: .seconds(60), maxDelay: .seconds(5))])
        )
        // Retry-After: 0 replaces the (one-minute) backoff; one hour exceeds maxDelay, so no retry.
        await #expect(throws: RequestError.self) { try await client.send(Endpoint<Void>(host: "t", path: "/soon")) }
        await #expect(throws: RequestError.self) { try await client.send(Endpoint<Void>(host: "t", path: "/later")) }
        #expect(stub.requests.map { $0.head.path ?? "" } == ["/soon", "/soon", "/later"])
    }

    @Test func backoffGrowsExponentiallyWithinBounds() {
        let retry = Retry(baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        for _ in 0..<50 {
            let first = retry.backoff(after: 1)
            #expect(first >= .milliseconds(50) && first <= .milliseconds(100))
            let third = retry.backoff(after: 3)
            #expect(third >= .milliseconds(200) && third <= .milliseconds(400))
            let tenth = retry.backoff(after: 10)
            #expect(tenth >= .milliseconds(500) && tenth <= .seconds(1))
        }
    }

    // MARK: - Logging

    @Test func logsRequestsWithSecretsRedacted() async throws {
        let recorder = LineRecorder()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(recorder: recorder) }
        logger.logLevel = .trace
        let stub = StubTransport()
        stub.on(.get, "/me", .json("{}"))
        let client = HTTPClient(
            transport: stub,
            configuration: .init(middleware: [RequestLogging(logger: logger), Authentication.bearer("SECRET-TOKEN")])
        )
        let endpoint = Endpoint<Data>(
            host: "api.test",
            path: "/me",
            query: [URLQueryItem(name: "api_key", value: "SECRET-KEY"), URLQueryItem(name: "q", value: "x")],
            headers: [.cookie: "session=SECRET-COOKIE"]
        )
        _ = try await client.send(endpoint)
        let log = recorder.lines
        #expect(log.first == "debug → GET https://api.test/me?api_key=REDACTED&q=x")
        #expect(log.contains("trace → Cookie: REDACTED"))
        #expect(log.contains { $0.hasPrefix("debug ← 200 OK GET https://api.test/me?api_key=REDACTED&q=x (") })
        #expect(!log.joined().contains("SECRET"))
    }

    @Test func curlCommandIsRedactedUnlessAsked() throws {
        let endpoint = Endpoint<Void>(
            method: .post,
            host: "api.test",
            path: "/login",
            query: [URLQueryItem(name: "token", value: "T")],
            headers: [.authorization: "Bearer B", try #require(HTTPField.Name("X-Note")): "it's"],
            body: .form([("user", "ada"), ("password", "it's secret")])
        )
        let request = try HTTPClient(transport: StubTransport()).prepare(endpoint)
        #expect(
            request.curlCommand()
                == "curl -X POST 'https://api.test/login?token=REDACTED' -H 'User-Agent: Courier/1.0' -H 'Authorization: REDACTED' "
                + "-H 'X-Note: it'\\''s' -H 'Content-Type: application/x-www-form-urlencoded' --compressed "
                + "--data-binary 'user=ada&password=REDACTED'"
        )
        #expect(
            request.curlCommand(redactingSecrets: false)
                == "curl -X POST 'https://api.test/login?token=T' -H 'User-Agent: Courier/1.0' -H 'Authorization: Bearer B' "
                + "-H 'X-Note: it'\\''s' -H 'Content-Type: application/x-www-form-urlencoded' --compressed "
                + "--data-binary 'user=ada&password=it%27s+secret'"
        )
    }

    /// A JSON body's secrets are the rule's too (issue 28): `--curl` and every rendering share it.
    @Test func curlCommandRedactsJSONAndTextBodies() throws {
        let client = HTTPClient(transport: StubTransport())
        let json = try client.prepare(
            Endpoint<Void>(
                method: .post,
                host: "api.test",
                path: "/login",
                body: .data(
                    Data(#"{"user":"ada","password":"hunter2","nested":{"api_key":"K1"}}"#.utf8),
                    contentType: "application/json"
                )
            )
        )
        #expect(
            json.curlCommand().hasSuffix(
                #"--data-binary '{"user":"ada","password":"REDACTED","nested":{"api_key":"REDACTED"}}'"#
            )
        )
        #expect(json.curlCommand(redactingSecrets: false).contains("hunter2"))
        let text = try client.prepare(
            Endpoint<Void>(
                method: .post,
                host: "api.test",
                path: "/note",
                body: .data(Data("see https://x.test/?access_token=T2 now".utf8), contentType: "text/plain")
            )
        )
        #expect(text.curlCommand().hasSuffix("--data-binary 'see https://x.test/?access_token=REDACTED now'"))
    }

    @Test func middlewareRunsOutermostFirst() async throws {
        let stub = StubTransport()
        stub.on(nil, "/", .status(.noContent))
        let recorder = LineRecorder()
        let client = HTTPClient(
            transport: stub,
            configuration: .init(middleware: [recorder.tag("a"), recorder.tag("b")])
        )
        try await client.send(Endpoint<Void>(host: "t", path: "/"))
        #expect(recorder.lines == ["→a", "→b", "←b", "←a"])
    }
}

/// Collects lines from middleware and log handlers, shared by reference.
final class LineRecorder: Sendable {
    private let entries = Mutex<[String]>([])

    var lines: [String] { entries.withLock { $0 } }

    func append(_ line: String) { entries.withLock { $0.append(line) } }

    /// A middleware that records when the request passes it, in and out.
    func tag(_ name: String) -> some Middleware { Tag(name: name, recorder: self) }

    private struct Tag: Middleware {
        let name: String
        let recorder: LineRecorder

        func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
            recorder.append("→\(name)")
            let response = try await next(request)
            recorder.append("←\(name)")
            return response
        }
    }
}

/// A log handler that records each line as "level message".
struct RecordingLogHandler: LogHandler {
    let recorder: LineRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    func log(event: LogEvent) {
        recorder.append("\(event.level) \(event.message)")
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
