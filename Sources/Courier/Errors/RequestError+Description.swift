extension RequestError: CustomStringConvertible {
    /// One line for a person: what failed, on which request, and what to do.
    public var message: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "Invalid URL '\(url)': \(reason). Check the scheme, host and path."
        case .invalidBody(let request, let reason):
            return "Could not encode the body of \(request): \(reason)."
        case .insecureConnection(let request, let reason):
            return reason.refusal(of: request)
                + " TransportSecurityPolicy.allowingInsecureHTTP(to: \"\(request.host)\")."
        case .transport(let failure):
            return Self.message(for: failure)
        case .unauthorized(let failure):
            return "\(failure.request) returned \(failure.statusLine): check your credentials (token or API key) "
                + "and that they grant access to this resource.\(Self.serverSaid(failure))"
        case .authentication(let failure):
            return "Could not renew the credential for \(failure.request): \(failure.reason). "
                + "Sign in again, or check the service that issues the credential."
        case .clientError(let failure):
            return "\(failure.request) returned \(failure.statusLine): the request was rejected; check the URL, "
                + "parameters and body.\(Self.serverSaid(failure))"
        case .serverError(let failure):
            let retry = failure.retryAfter.map { " (it asks to retry after \($0.secondsDescription))" } ?? ""
            return "\(failure.request) returned \(failure.statusLine): the server failed\(retry); try again later."
                + Self.serverSaid(failure)
        case .unexpectedStatus(let failure):
            return "\(failure.request) returned \(failure.statusLine): this status cannot be used here; check the URL "
                + "or the redirect policy.\(Self.serverSaid(failure))"
        case .unexpectedContentType(let failure, let expected):
            let received = failure.contentType ?? "no content type"
            return "\(failure.request) returned \(received) where \(expected.first ?? "another type") was expected: "
                + "check the URL; this may be an error page or a login portal.\(Self.serverSaid(failure))"
        case .decoding(let failure):
            let location = failure.codingPath.isEmpty ? "" : " at \(failure.codingPath)"
            let excerpt = failure.bodyExcerpt.isEmpty ? "" : " Body: \(failure.bodyExcerpt)"
            return "Could not decode \(failure.type) from \(failure.request)\(location): \(failure.reason).\(excerpt)"
        case .bodyTooLarge(let request, let limit):
            return "The response to \(request) is larger than the \(limit)-byte limit; raise the limit "
                + "(HTTPClient.Configuration.maxResponseSize) or request less."
        case .stream(let failure):
            return Self.message(for: failure)
        case .fileSystem(let path, let reason):
            return "Could not use \(path): \(reason). "
                + "Check that it exists, that you may use it, and that its disk has free space."
        case .cancelled:
            return "The request was cancelled."
        }
    }

    /// The same text as the message, for string interpolation and logs.
    public var description: String { message }

    private static func message(for failure: StreamFailure) -> String {
        let place = failure.line.map { " at line \($0)" } ?? ""
        switch failure.kind {
        case .lineTooLong(let limit):
            return "The response to \(failure.request) has a line longer than \(limit) bytes\(place); "
                + "raise the maximum line length or read the body as bytes."
        case .eventTooLarge(let limit):
            return "The event stream of \(failure.request) sent an event larger than \(limit) bytes\(place); "
                + "raise the maximum event size if the service sends events that large."
        case .readTwice:
            return "The body of \(failure.request) was read twice; a streamed body can be read once, so keep what "
                + "you need from the first reading."
        }
    }

    /// A short, bounded identifier of the error class, for exit codes, metrics and logs.
    public var shortDescription: String {
        switch self {
        case .invalidURL: "invalid_url"
        case .invalidBody: "invalid_body"
        case .insecureConnection: "insecure_connection"
        case .transport(let failure): "transport_\(failure.kind.rawValue)"
        case .unauthorized: "http_401"
        case .authentication: "authentication"
        case .clientError(let failure), .serverError(let failure), .unexpectedStatus(let failure):
            "http_\(failure.status)"
        case .unexpectedContentType: "unexpected_content_type"
        case .decoding: "decoding"
        case .bodyTooLarge: "body_too_large"
        case .stream(let failure):
            switch failure.kind {
            case .lineTooLong: "line_too_long"
            case .eventTooLarge: "event_too_large"
            case .readTwice: "stream_read_twice"
            }
        case .fileSystem: "file_system"
        case .cancelled: "cancelled"
        }
    }

    /// The broad class of the error, which decides a command-line program's exit status.
    public var category: Category {
        switch self {
        case .invalidURL, .invalidBody, .fileSystem: .invalidRequest
        case .transport(let failure) where failure.kind == .undecodableBody: .invalidResponse
        case .insecureConnection, .transport: .network
        case .unauthorized, .authentication, .clientError: .clientError
        case .serverError: .serverError
        case .unexpectedStatus, .unexpectedContentType, .decoding, .bodyTooLarge, .stream: .invalidResponse
        case .cancelled: .cancelled
        }
    }

    /// The broad classes of ``RequestError``.
    public enum Category: Sendable, Hashable {
        /// The request could not be built (URL, body): a usage problem.
        case invalidRequest
        /// Refused before connecting, or the connection failed.
        case network
        /// The server answered 4xx.
        case clientError
        /// The server answered 5xx.
        case serverError
        /// The response could not be used: status, content type, decoding or size.
        case invalidResponse
        /// Cancelled; not a failure.
        case cancelled
    }

    private static func message(for failure: TransportFailure) -> String {
        let request = failure.request
        let detail = failure.detail.isEmpty ? "" : " (\(failure.detail))"
        switch failure.kind {
        case .hostNotFound:
            return "Could not find host \(request.host) for \(request)\(detail): check the host name and your network."
        case .connectionRefused:
            return
                "Could not connect to \(request.host) for \(request)\(detail): is the server running, and the port right?"
        case .connectionLost:
            return "The connection for \(request) closed before the response was complete\(detail); try again."
        case .tls:
            return
                "Secure connection to \(request.host) failed for \(request)\(detail): check the certificate and the system clock."
        case .timedOut:
            return "\(request) timed out\(detail); try again, or raise the timeout."
        case .tooManyRedirects:
            return "\(request) redirected too many times\(detail); check the URL for a redirect loop."
        case .undecodableBody:
            return "The compressed body of \(request) could not be decompressed\(detail): the server sent it "
                + "corrupt or cut short. Ask for it uncompressed (Accept-Encoding: identity, or "
                + "HTTPClient.Configuration.acceptedEncodings = []) or report it to the service."
        case .proxy:
            return "\(request) failed at its proxy\(detail): check the proxy's address and "
                + "credentials, and that it lets you reach this host and port."
        case .other:
            return "\(request) failed\(detail); check your network and try again."
        }
    }

    /// The server's own words, last, so the line reads: what failed, what to do, what was said.
    static func serverSaid(_ failure: HTTPFailure) -> String {
        failure.bodyExcerpt.isEmpty ? "" : " The server said: \(failure.bodyExcerpt)"
    }
}
