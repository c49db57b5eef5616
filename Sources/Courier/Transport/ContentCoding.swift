package import HTTPTypes

/// A content coding (RFC 9110 §8.4.1): how a body was compressed for the wire.
///
/// A client asks for the codings it accepts in `Accept-Encoding`
/// (``HTTPClient/Configuration/acceptedEncodings``, `gzip` and `deflate` by default), and every
/// transport undoes them as the body arrives: what a client, a middleware or the cache sees is
/// the decoded body, with `Content-Encoding` and `Content-Length` (which describe the coded
/// bytes) removed from the head. Entity tags and the other fields stay as the server sent them.
///
/// ```swift
/// var configuration = HTTPClient.Configuration()
/// // Uncompressed bodies only: Accept-Encoding: identity.
/// configuration.acceptedEncodings = []
/// // One endpoint's own choice wins over the client's.
/// let endpoint = Endpoint<Data>(url: url).setting(.acceptEncoding, to: "gzip")
/// ```
public struct ContentCoding: Hashable, Sendable, CustomStringConvertible {
    /// The coding's name, in lower case.
    public let name: String

    private init(name: String) {
        self.name = name
    }

    /// The coding named `token` (case-insensitive), or `nil` when `token` is not an HTTP token.
    public init?(_ token: some StringProtocol) {
        guard !token.isEmpty, token.utf8.allSatisfy(Self.isTokenCharacter) else { return nil }
        self.name = String(token).lowercased()
    }

    /// gzip (RFC 1952); `x-gzip` is read as the same.
    public static let gzip = ContentCoding(name: "gzip")
    /// The zlib format (RFC 1950), or raw deflate from servers that send that instead.
    public static let deflate = ContentCoding(name: "deflate")
    /// No coding.
    public static let identity = ContentCoding(name: "identity")

    /// The name, as `Content-Encoding` and `Accept-Encoding` write it.
    public var description: String { name }

    /// The `Accept-Encoding` value that asks for `codings`: `identity` when there are none, so
    /// that a transport with defaults of its own (libcurl's) does not add them.
    public static func acceptEncoding(_ codings: [ContentCoding]) -> String {
        let named = codings.filter { $0 != .identity }
        return named.isEmpty ? "identity" : named.map(\.name).joined(separator: ", ")
    }

    /// The codings an `Accept-Encoding` or `Content-Encoding` value lists, without their
    /// weights (`gzip;q=0.8`); `nil` when an entry is not a token.
    static func list(_ value: String) -> [ContentCoding]? {
        var codings: [ContentCoding] = []
        for entry in value.utf8.split(separator: UInt8(ascii: ",")) {
            let name = Substring(entry.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)[0])
                .trimmingHTTPWhitespace
            if name.isEmpty { continue }
            guard let coding = ContentCoding(name) else { return nil }
            codings.append(coding.name == "x-gzip" ? .gzip : coding)
        }
        return codings
    }

    /// Whether `Accept-Encoding` (all its field values) accepts `coding` (RFC 9110 §12.5.3): the
    /// coding named with a weight above zero, else `*` so, else (for `identity` only) not
    /// refused. `x-gzip` counts as `gzip`; a weight that cannot be read counts as 1.
    ///
    /// ```swift
    /// ContentCoding.accepts(.gzip, acceptEncoding: ["br, gzip;q=0.5"])   // true
    /// ContentCoding.accepts(.gzip, acceptEncoding: ["gzip;q=0, *"])      // false
    /// ```
    public static func accepts(_ coding: ContentCoding, acceptEncoding fields: [String]) -> Bool {
        var named: Bool?
        var star: Bool?
        for field in fields {
            for entry in field.utf8.split(separator: UInt8(ascii: ",")) {
                let parts = entry.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
                let name = Substring(parts[0]).trimmingHTTPWhitespace
                guard !name.isEmpty, let listed = ContentCoding(name) else { continue }
                let weight =
                    parts.dropFirst().lazy.compactMap { parameter -> Double? in
                        let pair = Substring(parameter).split(separator: "=", maxSplits: 1)
                        guard pair.count == 2, pair[0].trimmingHTTPWhitespace.lowercased() == "q" else { return nil }
                        return Double(pair[1].trimmingHTTPWhitespace)
                    }.first ?? 1
                let accepted = weight > 0
                if listed.name == "*" {
                    star = accepted
                } else if listed == coding || (listed.name == "x-gzip" && coding == .gzip) {
                    named = accepted
                }
            }
        }
        return named ?? star ?? (coding == .identity)
    }

    // MARK: - For transports

    /// How a transport treats the body of `response` to a request with `method`: the codings to
    /// undo, the last applied first; `[]` when the body is sent as it is.
    ///
    /// A body is decoded when every coding `Content-Encoding` lists is one ``isDecodable``
    /// names and the response has a body: not for `HEAD`, 1xx, 204 and 304, and not for a 206,
    /// whose bytes are a slice of the coded representation that cannot be decoded alone.
    /// A body in a coding the transport cannot undo (for Courier's own decoder `br`, `zstd`,
    /// `compress`) is handed over as it came, with its `Content-Encoding`, and so is one in a
    /// coding the request's `Accept-Encoding` (`requested`, when it has one) did not accept: a
    /// download asks for `identity`, and a file a server labels `gzip` anyway is saved as sent.
    package static func codingsToUndo(
        in response: HTTPResponse,
        method: HTTPRequest.Method,
        requested: [String] = [],
        maximumLayers: Int = ContentCoding.maximumLayers,
        decodable: (ContentCoding) -> Bool = \.isDecodable
    ) -> [ContentCoding] {
        let status = response.status.code
        guard method != .head, status >= 200, status != 204, status != 206, status != 304,
            let field = response.headerFields[.contentEncoding]
        else { return [] }
        guard var codings = list(field) else { return [] }
        codings.removeAll { $0 == .identity }
        guard codings.allSatisfy(decodable) else { return [] }
        if !requested.isEmpty, !codings.allSatisfy({ accepts($0, acceptEncoding: requested) }) { return [] }
        // More layers than any server sends are not unwrapped: each is a decompression step.
        guard codings.count <= maximumLayers else { return [] }
        return codings.reversed()
    }

    /// The most codings a transport undoes on one body (curl's limit is five).
    package static let maximumLayers = 3

    /// Whether Courier's transports undo this coding: gzip and deflate.
    public var isDecodable: Bool { self == .gzip || self == .deflate }

    /// `head` as it describes a decoded body: without `Content-Encoding`, and without the
    /// `Content-Length` of the coded bytes.
    package static func decodedHead(_ head: HTTPResponse) -> HTTPResponse {
        var head = head
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = nil
        return head
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingHTTPWhitespace: Substring {
        var text = self
        while let first = text.utf8.first, first == 0x20 || first == 0x09 { text = text.dropFirst() }
        while let last = text.utf8.last, last == 0x20 || last == 0x09 { text = text.dropLast() }
        return text
    }
}
