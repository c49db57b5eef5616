/// Why a git wire conversation failed.
public enum GitWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not a `git://`, `https://` or `http://` repository address this can use, or
    /// would put control bytes into the request.
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
    /// HTTP 404 or 410: there is no repository at the address (or none these credentials may
    /// see: some hosts answer so for a private repository).
    case notFound(String)
    /// HTTP 401: the repository needs credentials, or refused the ones sent.
    case unauthorized(String, credentialsSent: Bool)
    /// HTTP 403: the server does not let these credentials, or none, read the repository.
    case forbidden(String, credentialsSent: Bool)
    /// Another HTTP status than the protocol allows.
    case unexpectedStatus(String, status: Int)
    /// The HTTP client's security policy refused a request to `host` before sending it:
    /// cleartext to a host it does not allow, or a redirect it does not follow. The reason ends
    /// where the way to allow the host would be named.
    case refused(String, host: String, reason: String)
    /// The HTTP exchange failed in a way the other cases do not name: TLS, a proxy, too many
    /// redirects.
    case transport(String, reason: String)

    /// One line for a person: what failed, where, and what to do.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "'\(url)' is not a git URL this can use: \(reason)."
        case .hostNotFound(let address):
            "Could not find the host of \(address): check the name."
        case .connectionRefused(let address):
            "Could not connect to \(address) (connection refused): is the git server running, and the port right?"
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
        case .notFound(let address):
            "There is no repository at \(address) (HTTP 404): check the address. Some hosts answer so for a "
                + "private repository too."
        case .unauthorized(let address, credentialsSent: false):
            "\(address) needs credentials (HTTP 401): give a token or password for it."
        case .unauthorized(let address, credentialsSent: true):
            "\(address) refused the credentials given (HTTP 401): check the token and the user name."
        case .forbidden(let address, let credentialsSent):
            "\(address) does not allow access (HTTP 403): "
                + (credentialsSent
                    ? "the credentials given cannot read this repository."
                    : "it may need credentials.")
        case .unexpectedStatus(let address, let status):
            "\(address) answered with HTTP status \(status), not the refs: check the address."
        case .refused(_, let host, let reason):
            "\(reason) TransportSecurityPolicy.allowingInsecureHTTP(to: \"\(host)\")."
        case .transport(let address, let reason):
            "Could not list the refs of \(address): \(reason)"
        }
    }

    /// `duration` in seconds for a message, to the millisecond: `10.0`, `0.25`.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000_000)).rounded() / 1000
    }
}

/// Runs `body`, turning a framing error into ``GitWireError/malformed(_:reason:)``.
func wrap<Result>(_ address: String, _ body: () throws(PktLineError) -> Result) throws(GitWireError) -> Result {
    do {
        return try body()
    } catch {
        throw .malformed(address, reason: error.description)
    }
}
