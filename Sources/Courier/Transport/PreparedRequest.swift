public import Foundation
public import HTTPTypes

/// A request ready for the wire: absolute URL, header fields and encoded body, with the limits
/// the transport must enforce. Middleware and transports work on this type.
public struct PreparedRequest: Sendable {
    /// Method, scheme, authority, path with query, and header fields.
    public var head: HTTPRequest
    /// The encoded body, if any.
    public var body: Data?
    /// The total time the exchange may take, connection included; `nil` for no limit.
    public var timeout: Duration?
    /// The largest response body the transport may read.
    public var maxResponseSize: Int

    /// Creates a prepared request.
    public init(head: HTTPRequest, body: Data? = nil, timeout: Duration? = nil, maxResponseSize: Int = Int.max) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.maxResponseSize = maxResponseSize
    }

    /// The absolute URL, such as `https://api.example.com/3/movie/550?language=en`.
    public var url: String {
        "\(head.scheme ?? "https")://\(head.authority ?? "")\(head.path ?? "/")"
    }

    /// The host, without port or IPv6 brackets.
    public var host: String {
        Authority(head.authority ?? "").host
    }

    /// The method and URL with secrets redacted, for messages and logs.
    public var summary: RequestSummary {
        RequestSummary(method: head.method.rawValue, url: Redaction.redactingURL(url))
    }
}

/// The parts of an `authority` (`host[:port]`, IPv6 in brackets).
struct Authority {
    var host: String
    var port: Int?

    /// `host[:port]`, with an IPv6 host in brackets.
    static func format(host: String, port: Int?) -> String {
        let host = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return port.map { "\(host):\($0)" } ?? host
    }

    init(_ authority: String) {
        var rest = Substring(authority)
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            port = after.hasPrefix(":") ? Int(after.dropFirst()) : nil
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            port = Int(rest[rest.index(after: colon)...])
        } else {
            host = String(rest)
            port = nil
        }
    }
}
