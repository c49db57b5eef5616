public import Foundation
import Hummingbird
import Logging
import NIOCore

/// A real HTTP server on 127.0.0.1 with the routes Courier's tests and benchmarks need: JSON,
/// echo, redirects, error statuses, slow, large, dropped and hanging responses.
///
/// ```swift
/// try await TestServer.withRunning { server in
///     let url = server.url("/json")
/// }
/// ```
public struct TestServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// What the server observed.
    public let events: TestServerEvents

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { url("") }

    /// Starts a server on a free port, runs `body`, and stops the server, whether `body`
    /// returns or throws.
    public static func withRunning<Result: Sendable>(
        _ body: @Sendable (TestServer) async throws -> Result
    ) async throws -> Result {
        let events = TestServerEvents()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: TestRoutes.router(events: events),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                throw TestServerError.didNotStart
            }
            defer { group.cancelAll() }
            return try await body(TestServer(port: port, events: events))
        }
    }

    /// Runs the server on `port` until the task is cancelled (for benchmarks).
    public static func run(port: Int) async throws {
        let app = Application(
            router: TestRoutes.router(events: TestServerEvents()),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await app.run()
    }
}

extension TestServer {
    /// What `/echo` answers: the request as the server received it.
    public struct Echo: Codable, Sendable {
        /// The method.
        public var method: String
        /// The path, without the query.
        public var path: String
        /// The query as sent, still percent-encoded.
        public var query: String
        /// The query items, percent-decoded, as `[name, value]` pairs in order.
        public var queryItems: [[String]]
        /// Header fields by lowercased name; repeated fields joined with ", ".
        public var headers: [String: String]
        /// The body as text.
        public var body: String
    }
}

/// Why a test server could not be used.
public enum TestServerError: Error {
    /// The server did not report a listening port.
    case didNotStart
    /// An awaited event did not happen in time.
    case timedOut(String)
}
