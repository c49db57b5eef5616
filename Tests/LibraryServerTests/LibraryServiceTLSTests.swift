import AsyncHTTPClient
import CourierServerKit
import CourierTestServer
import CourierTestTraits
import Foundation
import LibrarySearch
import LibraryServer
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS
import Testing

/// The service over HTTPS: HTTP/2 offered by ALPN, HTTP/1.1 still served, and the certificate
/// checked at start.
@Suite(.loadLimited)
struct LibraryServiceTLSTests {
    /// Runs `body` with the service on HTTPS (a certificate from a test authority) and the
    /// certificate files; the service stops when it returns.
    @discardableResult
    static func withHTTPSServer<Result: Sendable>(
        _ body: @Sendable (URL, TestCertificates) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TestCertificates.make(in: directory)
        let certificate = try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: files.keyFile)
        #expect(certificate.names == ["localhost", "127.0.0.1"])
        #expect(!certificate.isSelfSigned)

        let server = try LibraryServer(
            library: Library(LibraryServiceFixture.data),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }  // a server that cannot start must not leave the test waiting
                try await server.run(host: "127.0.0.1", port: 0, certificate: certificate, handlingSignals: false) {
                    continuation.yield($0)
                    continuation.finish()
                }
            }
            defer { group.cancelAll() }
            var iterator = urls.makeAsyncIterator()
            let url = try #require(await iterator.next())
            #expect(url.scheme == "https")
            return try await body(url, files)
        }
    }

    /// GET `path` with a client configured by `tls` (trusting the test authority).
    static func get(
        _ path: String,
        from url: URL,
        files: TestCertificates,
        httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic,
        tls configure: (inout TLSConfiguration) -> Void = { _ in }
    ) async throws -> (HTTPClientResponse, String) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(files.authorityFile)
        configure(&tls)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = httpVersion
        let client = HTTPClient(
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
            configuration: configuration
        )
        do {
            let response = try await client.execute(
                HTTPClientRequest(url: url.absoluteString + path),
                timeout: .seconds(60)
            )
            let body = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            return (response, String(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test(arguments: [true, false])
    func servesHTTP2AndHTTP1OverTLS(_ offersHTTP2: Bool) async throws {
        try await Self.withHTTPSServer { url, files in
            let (response, body) = try await Self.get(
                "/locations?country=fr",
                from: url,
                files: files,
                httpVersion: offersHTTP2 ? .automatic : .http1Only
            )
            #expect(response.status == .ok)
            #expect(response.version == (offersHTTP2 ? .http2 : .http1_1))
            #expect(body.contains("Rue Cler"))
            #expect(response.headers["Strict-Transport-Security"] == ["max-age=63072000"])
        }
    }

    /// Mozilla's "intermediate" profile (issue 28): TLS 1.0 and 1.1 (RFC 8996), CBC suites and
    /// key exchange without forward secrecy fail the handshake; TLS 1.2 with ECDHE and an AEAD
    /// suite, and TLS 1.3, succeed.
    @Test func onlyModernProtocolsAndSuitesAreOffered() async throws {
        try await Self.withHTTPSServer { url, files in
            let refused: [(String, (inout TLSConfiguration) -> Void)] = [
                (
                    "TLS 1.0",
                    {
                        $0.minimumTLSVersion = .tlsv1
                        $0.maximumTLSVersion = .tlsv1
                    }
                ),
                (
                    "TLS 1.1",
                    {
                        $0.minimumTLSVersion = .tlsv11
                        $0.maximumTLSVersion = .tlsv11
                    }
                ),
                (
                    "TLS 1.2 with CBC",
                    {
                        $0.maximumTLSVersion = .tlsv12
                        $0.cipherSuiteValues = [
                            .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
                            .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
                        ]
                    }
                ),
                (
                    "TLS 1.2 with RSA key exchange",
                    {
                        $0.maximumTLSVersion = .tlsv12
                        $0.cipherSuiteValues = [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_256_GCM_SHA384]
                    }
                ),
            ]
            let port = try #require(url.port)
            for (name, configure) in refused {
                #expect(try await !Self.handshakes(port: port, files: files, configure), "\(name)")
            }
            let accepted: [(String, (inout TLSConfiguration) -> Void)] = [
                (
                    "TLS 1.2 with ECDHE and AES-GCM",
                    {
                        $0.maximumTLSVersion = .tlsv12
                        $0.cipherSuiteValues = [
                            .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
                        ]
                    }
                ),
                ("TLS 1.3", { $0.minimumTLSVersion = .tlsv13 }),
            ]
            for (name, configure) in accepted {
                #expect(try await Self.handshakes(port: port, files: files, configure), "\(name)")
            }
        }
    }

    /// Whether a TLS handshake with the server on `port` completes, for a client configured by
    /// `configure` (trusting the test authority): the handshake's own outcome, not a timeout.
    static func handshakes(
        port: Int,
        files: TestCertificates,
        _ configure: (inout TLSConfiguration) -> Void
    ) async throws -> Bool {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(files.authorityFile)
        configure(&tls)
        let context = try NIOSSLContext(configuration: tls)
        let outcome = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: "localhost")
                    )
                    try channel.pipeline.syncOperations.addHandler(HandshakeOutcome(promise: outcome))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        defer { channel.close(promise: nil) }
        do {
            try await outcome.futureResult.get()
            return true
        } catch {
            return false
        }
    }

    /// Succeeds its promise when the handshake completes, fails it on an error or a close;
    /// once (it lives on its channel's event loop).
    private final class HandshakeOutcome: ChannelInboundHandler {
        typealias InboundIn = NIOAny
        private let promise: EventLoopPromise<Void>
        private var settled = false

        init(promise: EventLoopPromise<Void>) { self.promise = promise }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted? = event as? TLSUserEvent { settle(nil) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { settle(error) }

        func channelInactive(context: ChannelHandlerContext) { settle(ChannelError.alreadyClosed) }

        private func settle(_ error: (any Error)?) {
            guard !settled else { return }
            settled = true
            if let error { promise.fail(error) } else { promise.succeed() }
        }
    }

    /// A key any user may read is refused, one its group may read is not when root owns it (the
    /// tests run as root; issue 28).
    @Test func aKeyOthersMayReadIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TestCertificates.make(in: directory)
        for mode in [0o644, 0o604, 0o620, 0o666] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: files.keyFile)
            let error = #expect(throws: ServerCertificateError.self, "mode \(String(mode, radix: 8))") {
                try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: files.keyFile)
            }
            #expect(
                error?.problem.hasPrefix("may be read or changed by other users (mode 0\(String(mode, radix: 8)))")
                    == true
            )
        }
        // 0640 is accepted for a key root owns, which the tests' keys are when they run as root.
        for mode in geteuid() == 0 ? [0o600, 0o640, 0o400] : [0o600, 0o400] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: files.keyFile)
            #expect(throws: Never.self, "mode \(String(mode, radix: 8))") {
                try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: files.keyFile)
            }
        }
        // Through a symbolic link (certbot's live/ keys are links), the key's own mode counts.
        let link = directory.appendingPathComponent("privkey.pem").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: files.keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: files.keyFile)
        #expect(throws: Never.self) {
            try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: link)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: files.keyFile)
        #expect(throws: ServerCertificateError.self) {
            try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: link)
        }
    }

    @Test func aCertificateOfTheWrongKindOrForTheFutureIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TestCertificates.make(in: directory, selfSigned: true)
        let certificate = try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: files.keyFile)
        #expect(certificate.isSelfSigned)
        #expect(throws: ServerCertificateError.self) {
            try ServerCertificate(
                certificateFile: files.certificateFile,
                privateKeyFile: files.keyFile,
                now: Date().addingTimeInterval(-86_400)
            )
        }
    }
}
