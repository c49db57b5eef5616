public import Hummingbird
public import HummingbirdCore
import NIOCore

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
    /// been answered. A client that trickles a byte now and then is never idle; this closes its
    /// connection.
    public var requestTimeout: Duration
    /// How many connections are served at once; further clients wait to be accepted.
    public var maximumConnections: Int

    /// 30 seconds of silence, a minute for a request, 1,024 connections.
    public static let `default` = ConnectionLimits(
        idleTimeout: .seconds(30),
        requestTimeout: .seconds(60),
        maximumConnections: 1024
    )

    /// Creates limits.
    public init(idleTimeout: Duration, requestTimeout: Duration = .seconds(60), maximumConnections: Int) {
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maximumConnections = maximumConnections
    }

    /// An HTTP/1.1 server that closes connections silent for ``idleTimeout`` or slower than
    /// ``requestTimeout`` to send a request.
    public var server: HTTPServerBuilder {
        let requestTimeout = TimeAmount(requestTimeout)
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [RequestDeadlineHandler(deadline: requestTimeout)],
                idleTimeout: TimeAmount(idleTimeout)
            )
        )
    }

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
