/// Why a git wire conversation failed.
public enum GitWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not `git://host[:port]/path`, or would put control bytes into the request.
    case invalidURL(String, reason: String)
    /// The host name did not resolve.
    case hostNotFound(String)
    /// Nothing accepted the connection.
    case connectionRefused(String)
    /// The connection closed before the advertisement was complete.
    case connectionLost(String)
    /// No answer within the timeout (or the deadline) given.
    case timedOut(String, after: Duration)
    /// The server sent `ERR <message>` (no such repository, access denied).
    case server(String, message: String)
    /// The server's bytes break pkt-line framing or the protocol.
    case malformed(String, reason: String)
    /// The server sent more than the client's ``GitLimits`` allow.
    case limitExceeded(String, reason: String)

    /// One line for a person: what failed, where, and what to do.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "'\(url)' is not a git:// URL this can use: \(reason)."
        case .hostNotFound(let address):
            "Could not find the host of \(address): check the name."
        case .connectionRefused(let address):
            "Could not connect to \(address) (connection refused): is git daemon running, and the port right?"
        case .connectionLost(let address):
            "The connection to \(address) closed before the refs were complete: try again."
        case .timedOut(let address, let duration):
            "No answer from \(address) within \(Self.seconds(duration)) s: check the server, or allow more time."
        case .server(let address, let message):
            "\(address) answered: \(message)"
        case .malformed(let address, let reason):
            "\(address) sent a malformed answer: \(reason)."
        case .limitExceeded(let address, let reason):
            "\(address) sent more than this client allows: \(reason)."
        }
    }

    /// `duration` in seconds for a message, to the millisecond: `10.0`, `0.25`.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000_000)).rounded() / 1000
    }
}
