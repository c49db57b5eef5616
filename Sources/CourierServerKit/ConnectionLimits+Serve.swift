public import Foundation
public import Hummingbird
public import Logging
import NIOCore
public import ServiceLifecycle

extension ConnectionLimits {
    /// Serves `responder` on `host`:`port` within these limits until SIGINT or SIGTERM (with
    /// `handlingSignals`) or until the task is cancelled, then stops gracefully: the one way
    /// Courier's servers run.
    ///
    /// ```swift
    /// let router = Router()
    /// router.get("/") { _, _ in "Hello" }
    /// try await ConnectionLimits.default.serve(router.buildResponder(), host: "127.0.0.1", port: 8080) { url in
    ///     print("Serving \(url)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - responder: What answers requests: a router's `buildResponder()`.
    ///   - host: The address to listen on; a loopback one keeps the server to this machine.
    ///   - port: The port; 0 picks a free one, which `onListening` receives.
    ///   - certificate: Serve HTTPS with this certificate, offering HTTP/2 and HTTP/1.1 by ALPN;
    ///     `nil` serves cleartext HTTP/1.1.
    ///   - serverName: The `Server` field of every answer; `nil` sends none.
    ///   - logger: Where the server's own messages go, and the logger of every request.
    ///   - services: Started before the server and stopped after it, in reverse order (a
    ///     database pool, a queue the routes feed).
    ///   - handlingSignals: Whether SIGINT and SIGTERM stop the server gracefully; otherwise
    ///     cancelling the task does (``runUntilCancelled(_:after:)``).
    ///   - onListening: Called once the server accepts connections, with its base URL: `host`
    ///     as given (a wildcard such as `0.0.0.0` too) and the port bound.
    /// - Throws: ``ListenError`` when the address cannot be listened on; what `services` throw.
    public func serve<Responder: HTTPResponder>(
        _ responder: Responder,
        host: String,
        port: Int,
        certificate: ServerCertificate? = nil,
        serverName: String? = "courier",
        logger: Logger = Logger(label: "courier.server"),
        after services: [any Service] = [],
        handlingSignals: Bool = true,
        onListening: @escaping @Sendable (URL) async -> Void = { _ in }
    ) async throws where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let scheme = certificate == nil ? "http" : "https"
        let authority = ListeningAddress.authority(host)
        let app = Application(
            responder: responder,
            server: try server(certificate: certificate),
            configuration: configuration(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in
                let boundPort = channel.localAddress?.port ?? port
                if let url = URL(string: "\(scheme)://\(authority):\(boundPort)") { await onListening(url) }
            },
            logger: logger
        )
        do {
            if handlingSignals {
                try await run(app, after: services)
            } else {
                try await runUntilCancelled(app, after: services)
            }
        } catch let error as IOError {
            throw ListenError(address: "\(host):\(port)", reason: ListenFailure(error))
        } catch let error as SocketAddressError {
            throw ListenError(address: "\(host):\(port)", reason: .other("\(error)"))
        }
    }
}

/// A server could not listen on its address.
public struct ListenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address, as `host:port`.
    public var address: String
    /// Why, and what to do.
    public var reason: ListenFailure

    /// An error for `address`.
    public init(address: String, reason: ListenFailure) {
        self.address = address
        self.reason = reason
    }

    /// "Cannot listen on 127.0.0.1:8080: the port is in use: stop the other server or choose
    /// another port."
    public var description: String { "Cannot listen on \(address): \(reason)." }
}
