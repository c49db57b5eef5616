public import Hummingbird
public import HummingbirdCore
import NIOCore

/// What a server allows each client: how long a connection may stay silent and how many may
/// be open at once. Silent clients are shed, so that a few idle or slow connections cannot use
/// up a server that serves everyone else.
///
/// ```swift
/// let limits = ConnectionLimits(idleTimeout: .seconds(30), maximumConnections: 1024)
/// let app = Application(router: router, server: limits.server, configuration: limits.configuration(address: address))
/// ```
public struct ConnectionLimits: Sendable, Hashable {
    /// How long a connection may send nothing (no request, or nothing more of one) before it is
    /// closed.
    public var idleTimeout: Duration
    /// How many connections are served at once; further clients wait to be accepted.
    public var maximumConnections: Int

    /// 30 seconds of silence, 1,024 connections.
    public static let `default` = ConnectionLimits(idleTimeout: .seconds(30), maximumConnections: 1024)

    /// Creates limits.
    public init(idleTimeout: Duration, maximumConnections: Int) {
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }

    /// An HTTP/1.1 server that closes connections silent for ``idleTimeout``.
    public var server: HTTPServerBuilder {
        .http1(configuration: .init(idleTimeout: TimeAmount(idleTimeout)))
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
