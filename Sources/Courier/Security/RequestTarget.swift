import HTTPTypes

/// Where a request goes — scheme, host and port — read from its head by one strict rule, so that
/// the first request and every redirect are checked alike and the ``TransportSecurityPolicy``
/// judges exactly the host the transport will connect to.
///
/// A host is either a name of ASCII letters, digits, `-`, `.`, `_` and `~`, or an IPv6 address
/// (hex digits, `:` and `.`, in brackets inside an authority). Everything a transport could read
/// as another host is refused rather than guessed at: percent-encoded bytes (`evil%2F.localhost`
/// is `evil` to a URL parser that decodes it), user information (`a@b`), delimiters, spaces and
/// control bytes, and non-ASCII names (each URL parser maps those to ASCII its own way; write
/// them in their `xn--` form).
struct RequestTarget: Sendable, Hashable {
    /// `http` or `https`, lowercased.
    var scheme: String
    /// The host, lowercased, without IPv6 brackets. A trailing dot is kept: `localhost.` and
    /// `127.0.0.1.` are names a resolver may send to DNS, not this machine.
    var host: String
    /// The port when the authority gives one.
    var port: Int?

    /// The port the connection goes to.
    var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// Whether both are the same origin (RFC 6454: scheme, host and port).
    func isSameOrigin(as other: RequestTarget) -> Bool {
        scheme == other.scheme && host == other.host && effectivePort == other.effectivePort
    }

    /// Reads the scheme and authority of `request`.
    ///
    /// - Throws: ``RequestError/invalidURL(_:reason:)`` naming what is wrong.
    init(_ request: PreparedRequest) throws(RequestError) {
        func invalid(_ reason: String) -> RequestError { .invalidURL(request.summary.url, reason: reason) }
        let scheme = (request.head.scheme ?? "").lowercased()
        guard scheme == "http" || scheme == "https" else { throw invalid("the scheme must be http or https") }
        switch HTTPAuthority.parse(Substring(request.head.authority ?? "")) {
        case .success(let authority):
            self.scheme = scheme
            self.host = authority.host
            self.port = authority.port
        case .failure(let problem):
            throw invalid(problem.reason)
        }
    }

    // MARK: - Hosts

    /// Why `host` cannot be used, or `nil` when it can. An IPv6 address may come with or without
    /// brackets.
    static func problem(withHost host: String) -> String? {
        var bytes = Substring(host).utf8[...]
        if bytes.isEmpty { return "there is no host" }
        if bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]"), bytes.count >= 2 {
            bytes = bytes.dropFirst().dropLast()
        }
        if bytes.contains(UInt8(ascii: ":")) {
            return bytes.allSatisfy(isIPv6Byte)
                ? nil : "the host '\(host)' is not an IPv6 address (hex digits, ':' and '.')"
        }
        if bytes.contains(UInt8(ascii: "%")) {
            return "the host '\(host)' holds percent-encoded bytes, which URL parsers read as other hosts"
        }
        if bytes.contains(where: { $0 >= 0x80 }) {
            return "the host '\(host)' is not ASCII; write an internationalized name in its ASCII (xn--) form"
        }
        if bytes.allSatisfy(isNameByte) { return nil }
        return "the host '\(host)' has characters a host cannot have"
    }

    /// ASCII letters, digits, `-`, `.`, `_`, `~`: the unreserved characters of RFC 3986.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func isIPv6Byte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: ":"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// 1…65535 from one to five ASCII digits.
    static func port(_ digits: Substring) -> Int? {
        guard (1...5).contains(digits.utf8.count),
            digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(digits), (1...65535).contains(value)
        else { return nil }
        return value
    }
}
