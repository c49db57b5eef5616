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
            let response = try await transport.send(current)
            guard maxRedirects > 0, let next = Self.redirect(from: current, after: response) else {
                return response
            }
            redirects += 1
            guard redirects <= maxRedirects else {
                throw .transport(
                    TransportFailure(.tooManyRedirects, request: request.summary, detail: "more than \(maxRedirects)")
                )
            }
            current = next
        }
    }

    /// The request to send after a 3xx response, or `nil` when it is not a redirect to follow.
    static func redirect(from request: PreparedRequest, after response: RawResponse) -> PreparedRequest? {
        let status = response.status
        guard Self.isRedirect(status),
            let location = response.head.headerFields[.location],
            let base = URL(string: request.url),
            let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let components = URLComponents(url: target, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host
        else { return nil }

        var next = request
        let authority = Authority.format(host: host, port: components.port)
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        next.head.scheme = scheme
        next.head.authority = authority
        next.head.path = path + query

        // 303 always, and 301/302 after a POST as every browser does, become a GET without a body.
        let method = request.head.method
        if (status == 303 && method != .head) || ((status == 301 || status == 302) && method == .post) {
            next.head.method = .get
            next.body = nil
            next.head.headerFields[.contentType] = nil
            next.head.headerFields[.contentLength] = nil
        }
        // Credentials are for the origin they were given to.
        if request.head.scheme != scheme || request.head.authority != authority {
            next.head.headerFields[.authorization] = nil
            next.head.headerFields[.proxyAuthorization] = nil
            next.head.headerFields[.cookie] = nil
        }
        return next
    }

    private static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
}
