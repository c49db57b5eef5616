public import CourierAsyncHTTPClient
public import Foundation
package import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

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
    /// `https` for a server started with `tls: true`, else `http`.
    public let scheme: String
    /// What the server observed.
    public let events: TestServerEvents

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")!
    }

    /// `http://127.0.0.1:<port>` (or `https://`).
    public var baseURL: URL { url("") }

    /// Starts a server on a free port, runs `body`, and stops the server, whether `body`
    /// returns or throws.
    ///
    /// - Parameters:
    ///   - tls: Serve HTTPS with a self-signed certificate no client trusts, to check that
    ///     clients verify certificates.
    ///   - certificate: Serve HTTPS with this certificate, which clients trusting its
    ///     authority accept: HTTP/1.1 only (ALPN offers nothing else), unlike the library
    ///     service, which offers HTTP/2 too.
    ///   - port: The port to listen on; 0 (the default) picks a free one.
    public static func withRunning<Result: Sendable>(
        tls: Bool = false,
        certificate: TestCertificates? = nil,
        port: Int = 0,
        _ body: @Sendable (TestServer) async throws -> Result
    ) async throws -> Result {
        let events = TestServerEvents()
        return try await serving(TestRoutes.router(events: events), tls: tls, certificate: certificate, port: port) {
            try await body(TestServer(port: $0, scheme: $1, events: events))
        }
    }

    /// Serves `router` on 127.0.0.1 (`port`, or a free one), over HTTPS with `certificate` or a
    /// self-signed one with `tls`, runs `body` with the port and scheme, and stops the server,
    /// whether `body` returns or throws.
    package static func serving<Result: Sendable>(
        _ router: Router<BasicRequestContext>,
        tls: Bool = false,
        certificate: TestCertificates? = nil,
        port: Int = 0,
        _ body: @Sendable (_ port: Int, _ scheme: String) async throws -> Result
    ) async throws -> Result {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            server: try certificate.map { try .tls(.http1(), tlsConfiguration: tlsConfiguration(for: $0)) }
                ?? (tls ? try .tls(.http1(), tlsConfiguration: selfSignedTLS()) : .http1()),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        // Stopped gracefully: the listening socket closes first, so no connection is accepted
        // while the server is being torn down; requests still running after a second (a
        // stalled transfer, a held search) are then cancelled.
        var configuration = ServiceGroupConfiguration(
            services: [app],
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.maximumGracefulShutdownDuration = .seconds(1)
        let services = ServiceGroup(configuration: configuration)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                throw TestServerError.didNotStart
            }
            let result: Result
            do {
                let scheme = tls || certificate != nil ? "https" : "http"
                result = try await body(port, scheme)
            } catch {
                await services.triggerGracefulShutdown()
                group.cancelAll()
                throw error
            }
            await services.triggerGracefulShutdown()
            try? await group.waitForAll()
            return result
        }
    }

    private static func tlsConfiguration(for certificate: TestCertificates) throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificateFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.keyFile, format: .pem))
        )
    }

    private static func selfSignedTLS() throws -> TLSConfiguration {
        guard
            let certificate = Bundle.module.path(
                forResource: "self-signed.cert",
                ofType: "pem",
                inDirectory: "Resources"
            ),
            let key = Bundle.module.path(forResource: "self-signed.key", ofType: "pem", inDirectory: "Resources")
        else { throw TestServerError.didNotStart }
        return TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
        )
    }

    /// Runs the server on `port` until the task is cancelled (for benchmarks), recording what
    /// it sees in `events`.
    public static func run(port: Int, events: TestServerEvents = TestServerEvents()) async throws {
        let app = Application(
            router: TestRoutes.router(events: events),
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

extension AsyncHTTPClientTransport.Configuration {
    /// For tests against loopback servers on a loaded 2-core machine: a minute to connect,
    /// which only ever delays a failure — a connection that succeeds is used at once.
    public static var loopbackTests: Self { Self(connectTimeout: .seconds(60)) }
}
