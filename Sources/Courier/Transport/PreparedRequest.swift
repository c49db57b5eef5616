public import Foundation
public import HTTPTypes

/// A request ready for the wire: absolute URL, header fields and encoded body, with the limits
/// the transport must enforce. Middleware and transports work on this type.
public struct PreparedRequest: Sendable {
    /// Method, scheme, authority, path with query, and header fields.
    public var head: HTTPRequest
    /// The encoded body, if any.
    public var body: Data?
    /// A body read piece by piece while it is sent (a file, a sequence of chunks); transports
    /// send it when ``body`` is `nil`.
    public var streamedBody: StreamedBody?
    /// The time the whole request may take, connection, body, redirects and retries included;
    /// `nil` for no limit.
    public var timeout: Duration?
    /// When the whole request must be over: set once by ``HTTPClient`` from ``timeout`` as the
    /// request enters its middleware, and kept across redirects and retries, so that together
    /// they take no longer than the timeout. `nil` until then, or for no limit.
    public var deadline: ContinuousClock.Instant?
    /// The largest response body the transport may read.
    public var maxResponseSize: Int
    /// How an ``HTTPCache`` in the client's middleware treats this request.
    public var cachePolicy: CachePolicy = .useProtocolPolicy
    /// Whether the client has a ``CookieStore``, which adds cookies after the middleware (the
    /// cache) has seen the request: a cache then neither stores nor serves a response that
    /// varies with `Cookie`.
    var hasCookieStore = false

    /// Creates a prepared request.
    public init(head: HTTPRequest, body: Data? = nil, timeout: Duration? = nil, maxResponseSize: Int = Int.max) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.maxResponseSize = maxResponseSize
    }

    /// What is left of the request's time, from ``deadline`` (never negative), or ``timeout``
    /// when no deadline is set; `nil` for no limit. A transport ends the exchange it is handed
    /// (head and body) when this runs out.
    public var timeLeft: Duration? {
        guard let deadline else { return timeout }
        return Swift.max(.zero, deadline - .now)
    }

    /// The absolute URL, such as `https://api.example.com/3/movie/550?language=en`.
    public var url: String {
        "\(head.scheme ?? "https")://\(head.authority ?? "")\(head.path ?? "/")"
    }

    /// The host, without port or IPv6 brackets.
    public var host: String {
        Authority.host(in: head.authority ?? "")
    }

    /// Whether sending the request again has the effect of sending it once: an idempotent
    /// method (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, TRACE, PUT, DELETE) or an `Idempotency-Key`
    /// header, and a body that can be read a second time.
    ///
    /// ``Retry`` retries only such requests, and a transport may send one a second time when
    /// its connection closed before any of the response arrived (RFC 9112 §9.3.1): a pooled
    /// connection that the server closed while idle looks alive until it is used.
    public var isRepeatable: Bool {
        let idempotent =
            switch head.method {
            case .get, .head, .options, .trace, .put, .delete: true
            default: head.headerFields[.idempotencyKey] != nil
            }
        return idempotent && (streamedBody?.isReplayable ?? true)
    }

    /// The header fields as an HTTP/1 message carries them, in order: the same, but one
    /// `Cookie` field with its pieces joined by "; " (RFC 6265 §5.4), where `HTTPFields` keeps
    /// them apart (as HTTP/2 may send them). Transports write these.
    package var wireFields: [(name: String, value: String)] {
        var fields = head.headerFields.filter { $0.name != .cookie }.map { ($0.name.rawName, $0.value) }
        if let cookies = head.headerFields[.cookie] { fields.append(("Cookie", cookies)) }
        return fields
    }

    /// The method and URL with secrets redacted, for messages and logs.
    public var summary: RequestSummary {
        RequestSummary(method: head.method.rawValue, url: Redaction.redactingURL(url))
    }
}

/// `authority` (`[user@]host[:port]`, IPv6 in brackets) written and read on UTF-8 bytes: it runs
/// for every cleartext request, and `Character`-level string work would cost grapheme breaking.
enum Authority {
    /// `host[:port]`, with an IPv6 host in brackets.
    static func format(host: String, port: Int?) -> String {
        let host = host.utf8.contains(UInt8(ascii: ":")) && host.utf8.first != UInt8(ascii: "[") ? "[\(host)]" : host
        guard let port else { return host }
        return host + ":" + String(port)
    }

    /// The host of `authority`, without user info, port or IPv6 brackets.
    static func host(in authority: String) -> String {
        var bytes = Substring(authority).utf8[...]
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")) { bytes = bytes[bytes.index(after: at)...] }
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            bytes = bytes[bytes.index(after: bytes.startIndex)..<close]
        } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            bytes = bytes[..<colon]
        }
        return String(Substring(bytes))
    }
}
