import Foundation
public import HTTPTypes

/// Adds credentials to every request: a Bearer token, or an API key as a query item or header.
///
/// ```swift
/// let client = HTTPClient(
///     transport: transport,
///     configuration: .init(middleware: [Authentication.bearer(token)])
/// )
/// ```
///
/// A credential whose name follows the redaction rule — `Authorization`, names containing
/// `auth`, `token`, `secret`, `password` or `api-key`, names ending in `key` (`X-API-Key`,
/// `Ocp-Apim-Subscription-Key`), and query items such as `api_key`, `key` or `appid` — is left
/// behind when a redirect leaves the origin and is redacted in logs, cURL commands, error
/// messages, cassettes and the disk cache. Give custom credentials such a name. A query-item
/// credential never follows a redirect: the `Location` brings its own query.
public struct Authentication: Middleware {
    private enum Credential: Sendable {
        case header(HTTPField.Name, String)
        case queryItem(name: String, value: String)
    }

    private let credential: Credential

    /// `Authorization: Bearer <token>` (OAuth 2, TMDB's v4 read-access token).
    public static func bearer(_ token: String) -> Self {
        Authentication(credential: .header(.authorization, "Bearer \(token)"))
    }

    /// The key as a query item, such as TMDB's v3 `api_key`.
    public static func apiKey(_ key: String, queryItem name: String = "api_key") -> Self {
        Authentication(credential: .queryItem(name: name, value: key))
    }

    /// The key in a header field, such as `X-API-Key`.
    public static func apiKey(_ key: String, header name: HTTPField.Name) -> Self {
        Authentication(credential: .header(name, key))
    }

    /// Handles one request; see ``Middleware/send(_:next:)``.
    public func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        var request = request
        switch credential {
        case .header(let name, let value):
            request.head.headerFields[name] = value
        case .queryItem(let name, let value):
            let path = request.head.path ?? "/"
            let item = PercentEncoding.query([URLQueryItem(name: name, value: value)])
            request.head.path = path + (path.contains("?") ? "&" : "?") + item
        }
        return try await next(request)
    }
}
