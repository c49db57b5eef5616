public import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a server could not listen on its address, and what to do about it, in terms of the
/// address: a program adds how its own users choose one.
///
/// ```swift
/// do {
///     try await limits.serve(responder, host: "127.0.0.1", port: 8080, logger: logger)
/// } catch let error as ListenError where error.reason == .portInUse {
///     try await limits.serve(responder, host: "127.0.0.1", port: 8081, logger: logger)
/// }
/// ```
public enum ListenFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another server listens on the port.
    case portInUse
    /// Listening on the port needs privileges (ports below 1024).
    case permissionDenied
    /// The address is not one of this machine's.
    case addressNotAvailable
    /// Another failure, as the system described it.
    case other(String)

    /// The failure behind a socket error.
    public init(_ error: IOError) {
        switch error.errnoCode {
        case EADDRINUSE: self = .portInUse
        case EACCES: self = .permissionDenied
        case EADDRNOTAVAIL: self = .addressNotAvailable
        default: self = .other(error.description)
        }
    }

    /// "the port is in use: stop the other server or choose another port".
    public var description: String {
        switch self {
        case .portInUse: "the port is in use: stop the other server or choose another port"
        case .permissionDenied: "permission denied: ports below 1024 need privileges; choose a port above 1023"
        case .addressNotAvailable: "the address is not one of this machine's: listen on 127.0.0.1 or 0.0.0.0"
        case .other(let reason): reason
        }
    }
}
