public import Hummingbird
public import HummingbirdCore
import HummingbirdHTTP2
import NIOCore
import NIOSSL

/// What a server allows each client: how long a connection may stay silent, how long a client
/// may take to send a request, and how many connections may be open at once. Silent and slow
/// clients are shed, so that a few idle or trickling connections cannot use up a server that
/// serves everyone else.
///
/// ```swift
/// let limits = ConnectionLimits(idleTimeout: .seconds(30), requestTimeout: .seconds(60), maximumConnections: 1024)
/// let app = Application(router: router, server: limits.server, configuration: limits.configuration(address: address))
/// ```
public struct ConnectionLimits: Sendable, Hashable {
    /// How long a connection may send nothing (no request, or nothing more of one) before it is
    /// closed.
    public var idleTimeout: Duration
    /// How long a client may take to send a whole request (head and body), counted from when
    /// the server starts waiting for it: when the connection opens or the previous request has
    /// been answered; and how long it may leave output unread while the server has more to
    /// send. A client that trickles a byte now and then, or stops reading, is never idle; this
    /// closes its connection.
    public var requestTimeout: Duration
    /// How many connections are served at once; further clients wait to be accepted.
    public var maximumConnections: Int
    /// How long a server asked to stop waits for the requests in flight before it cancels them
    /// (``run(_:after:)``).
    public var shutdownTimeout: Duration

    /// 30 seconds of silence, a minute for a request, 1,024 connections, 10 seconds to stop.
    public static let `default` = ConnectionLimits(
        idleTimeout: .seconds(30),
        requestTimeout: .seconds(60),
        maximumConnections: 1024
    )

    /// Creates limits.
    public init(
        idleTimeout: Duration,
        requestTimeout: Duration = .seconds(60),
        maximumConnections: Int,
        shutdownTimeout: Duration = .seconds(10)
    ) {
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maximumConnections = maximumConnections
        self.shutdownTimeout = shutdownTimeout
    }

    /// An HTTP/1.1 server that closes connections silent for ``idleTimeout`` or slower than
    /// ``requestTimeout`` to send a request.
    /// Durations under a millisecond count as one.
    public var server: HTTPServerBuilder {
        let shortest = TimeAmount.milliseconds(1)
        let requestTimeout = max(shortest, TimeAmount(requestTimeout))
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [RequestDeadlineHandler(deadline: requestTimeout)],
                idleTimeout: max(shortest, TimeAmount(idleTimeout))
            )
        )
    }

    /// With a certificate, an HTTPS server offering HTTP/2 and HTTP/1.1 by ALPN, with the same
    /// limits on every connection (HTTP/2: idle connections) and on every request (HTTP/2: every
    /// stream), and ``requestTimeout`` for the TLS handshake; without one, ``server``.
    ///
    /// - Throws: What NIOSSL throws when the certificate and key cannot make a TLS context.
    public func server(certificate: ServerCertificate?) throws -> HTTPServerBuilder {
        guard let certificate else { return server }
        let shortest = TimeAmount.milliseconds(1)
        let requestTimeout = max(shortest, TimeAmount(requestTimeout))
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificate.chain.map { .certificate($0) },
            privateKey: .privateKey(certificate.privateKey)
        )
        // Mozilla's "intermediate" profile: TLS 1.2 and 1.3 only (RFC 8996 retired 1.0 and 1.1),
        // and for TLS 1.2 only AEAD suites with forward secrecy; every TLS 1.3 suite is one.
        tls.minimumTLSVersion = .tlsv12
        tls.cipherSuiteValues = Self.intermediateCipherSuites
        let tlsConfiguration = tls
        let configuration = HTTP2UpgradeChannel.Configuration(
            idleTimeout: max(.milliseconds(1), idleTimeout),
            streamConfiguration: .init(
                additionalChannelHandlers: [RequestDeadlineHandler(deadline: requestTimeout)],
                idleTimeout: max(shortest, TimeAmount(idleTimeout))
            )
        )
        // Before the handshake completes, ``requestTimeout`` bounds it: the idle and request
        // clocks only start once the protocol is known.
        return HTTPServerBuilder { responder in
            HandshakeDeadlineChannel(
                base: try HTTP2UpgradeChannel(
                    tlsConfiguration: tlsConfiguration,
                    configuration: configuration,
                    responder: responder
                ),
                deadline: requestTimeout
            )
        }
    }

    /// The TLS 1.2 suites offered: ECDHE key exchange with AES-GCM or ChaCha20-Poly1305, as in
    /// Mozilla's "intermediate" configuration (BoringSSL offers no finite-field DHE). All are
    /// strong, so the client's order is kept, as that profile says.
    static let intermediateCipherSuites: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    /// The application configuration for `address` that accepts at most
    /// ``maximumConnections`` connections at once.
    public func configuration(address: BindAddress, serverName: String? = nil) -> ApplicationConfiguration {
        ApplicationConfiguration(
            address: address,
            serverName: serverName,
            availableConnectionsDelegate: MaximumAvailableConnections(max(1, maximumConnections))
        )
    }
}
