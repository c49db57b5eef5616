public import Foundation
public import HTTPTypes

/// A response as bytes, before its status is judged and its body decoded.
public struct RawResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The complete body.
    public var body: Data
    /// The URL that answered (after redirects).
    public var url: String
    /// Where the response came from when an ``HTTPCache`` took part; `nil` otherwise.
    public var cacheOutcome: CacheOutcome?
    /// The protocol the response came over, as `HTTP/1.1` or `HTTP/2`, when the transport says
    /// (`AsyncHTTPClientTransport` does); `nil` otherwise, and for an answer from the cache.
    public var httpVersion: String?
    /// The body still arriving, when the response is streamed (``HTTPClient/stream(_:timeout:idleTimeout:)``);
    /// ``body`` is empty then. Middleware that passes the response on keeps it.
    var stream: StreamedResponse.Body?
    /// Whether the request went with cookies from a ``CookieStore``, which the cache (outside
    /// the redirects, where the store adds them) did not see: the response is then stored only
    /// as one to a request with credentials may be.
    var carriedStoredCookies = false

    /// Creates a response.
    public init(head: HTTPResponse, body: Data = Data(), url: String) {
        self.head = head
        self.body = body
        self.url = url
    }

    /// The status code.
    public var status: Int { head.status.code }
}
