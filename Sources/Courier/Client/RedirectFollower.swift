import Foundation
import HTTPTypes

/// The innermost stage of every client: checks the security policy and follows redirects, one
/// transport hop at a time, so every transport behaves the same.
struct RedirectFollower: Sendable {
    let transport: any HTTPTransport
    let policy: TransportSecurityPolicy
    let maxRedirects: Int

    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        var current = request
        var redirects = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            try policy.check(current)
            // Each hop gets what is left of the request's time (PreparedRequest.timeLeft), not a
            // timeout of its own.
            if let deadline = current.deadline, deadline <= .now { throw .transport(.timedOut(current)) }
            let response = try await transport.send(Self.identityForRanges(current))
            guard maxRedirects > 0, let next = try Self.redirect(from: current, after: response) else {
                return response
            }
            redirects += 1
            guard redirects <= maxRedirects else {
                throw .transport(
                    TransportFailure(.tooManyRedirects, request: request.summary, detail: "more than \(maxRedirects)")
                )
            }
            try policy.checkRedirect(from: current, to: next)
            current = next
        }
    }

    /// The request to send after a 3xx response, or `nil` when it is not a redirect to follow.
    ///
    /// - Throws: ``RequestError/invalidURL(_:reason:)`` when the `Location` is not an `http` or
    ///   `https` URL with a host ``RequestTarget`` accepts: such a redirect is refused, not
    ///   returned as if it were the answer.
    static func redirect(
        from request: PreparedRequest,
        after response: RawResponse
    ) throws(RequestError)
        -> PreparedRequest?
    {
        let status = response.status
        guard Self.isRedirect(status), let location = response.head.headerFields[.location] else { return nil }
        func refused(_ reason: String) -> RequestError {
            .invalidURL(Redaction.redactingURL(location), reason: "\(request.summary) redirected there, but \(reason)")
        }
        guard let base = URL(string: request.url),
            let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let components = URLComponents(url: target, resolvingAgainstBaseURL: true)
        else { throw refused("it is not a URL") }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw refused("the scheme must be http or https")
        }
        // The host as written, still percent-encoded (a decoded host may hold '/', '#' or '@' and
        // be read differently by the transport), and in ASCII: an internationalized name as its
        // A-labels (`xn--…`), which Foundation's `host` and `percentEncodedHost` would decode.
        let host = components.encodedHost ?? ""
        if let problem = RequestTarget.problem(withHost: host) { throw refused(problem) }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            throw refused("it has user information (user@host), which is never sent on")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw refused("the port \(port) is outside 1…65535")
        }

        var next = request
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        next.head.scheme = scheme
        next.head.authority = Authority.format(host: host, port: components.port)
        next.head.path = path + query

        // 303 always, and 301/302 after a POST as every browser does, become a GET without a body.
        let method = request.head.method
        if (status == 303 && method != .head) || ((status == 301 || status == 302) && method == .post) {
            next.head.method = .get
            next.body = nil
            next.streamedBody = nil
            next.head.headerFields[.contentType] = nil
            next.head.headerFields[.contentLength] = nil
        }
        // A body read from a sequence is gone: the redirect is returned as the answer.
        if let streamed = next.streamedBody, !streamed.isReplayable { return nil }
        // Credentials are for the origin they were given to: every field the redaction rules
        // call secret stays behind when the redirect leaves it.
        let from = try RequestTarget(request)
        let to = try RequestTarget(next)
        if !from.isSameOrigin(as: to) {
            next.head.headerFields = next.head.headerFields.filter { !Redaction.isSecret($0.name) }
        }
        return next
    }

    /// A request with `Accept-Encoding: identity` when it asks for a range, whose byte offsets
    /// count the unencoded representation only then (downloads resumed, stored parts completed).
    static func identityForRanges(_ request: PreparedRequest) -> PreparedRequest {
        guard request.head.headerFields[.range] != nil,
            request.head.headerFields[.acceptEncoding] != "identity"
        else { return request }
        var request = request
        request.head.headerFields[.acceptEncoding] = "identity"
        return request
    }

    private static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
}
