import HTTPTypes

/// Which hosts may be reached over cleartext `http://` — App Transport Security, on every
/// platform.
///
/// By default HTTPS is required everywhere except loopback (`localhost`, `*.localhost`,
/// `127.0.0.0/8`, `::1`). A refused request fails with ``RequestError/insecureConnection(_:)``
/// before any connection is made, and the message says how to allow the host.
///
/// ```swift
/// let policy = TransportSecurityPolicy.default
///     .allowingInsecureHTTP(to: "intranet.example")
///     .allowingInsecureHTTP(to: "lan", includingSubdomains: true)
/// ```
public struct TransportSecurityPolicy: Sendable, Hashable {
    /// A host allowed over cleartext HTTP.
    public struct Exception: Sendable, Hashable {
        /// The domain, lowercased.
        public var domain: String
        /// Whether subdomains of ``domain`` are allowed too.
        public var includesSubdomains: Bool
    }

    /// Hosts allowed over cleartext HTTP besides loopback.
    public private(set) var exceptions: [Exception]
    /// Whether every host may be reached over cleartext HTTP.
    public private(set) var allowsAnyInsecureHTTP: Bool

    /// HTTPS everywhere except loopback.
    public static let `default` = TransportSecurityPolicy(exceptions: [], allowsAnyInsecureHTTP: false)

    /// Cleartext HTTP allowed everywhere. Use only for tools pointed at hosts a person chose.
    public static let permissive = TransportSecurityPolicy(exceptions: [], allowsAnyInsecureHTTP: true)

    // MARK: - Allowing hosts

    /// Returns a policy that also allows cleartext HTTP to `domain`.
    ///
    /// - Parameters:
    ///   - domain: A host name or IP address, compared case-insensitively.
    ///   - includingSubdomains: Whether `a.domain`, `b.a.domain`… are allowed too.
    public func allowingInsecureHTTP(to domain: String, includingSubdomains: Bool = false) -> Self {
        var copy = self
        let domain = Self.normalized(domain)
        copy.exceptions.append(Exception(domain: domain, includesSubdomains: includingSubdomains))
        return copy
    }

    // MARK: - Checking

    /// Whether a request with `scheme` to `host` may be sent.
    public func allows(scheme: String, host: String) -> Bool {
        if !Self.isHTTP(scheme) || allowsAnyInsecureHTTP { return true }
        let host = Self.normalized(host)
        if Self.isLoopback(host) { return true }
        return exceptions.contains { exception in
            host == exception.domain || (exception.includesSubdomains && host.hasSuffix("." + exception.domain))
        }
    }

    /// Throws ``RequestError/insecureConnection(_:)`` when the policy refuses the request.
    public func check(_ request: PreparedRequest) throws(RequestError) {
        // The host is taken apart only for cleartext requests: HTTPS needs no look at it.
        guard !Self.isHTTP(request.head.scheme ?? "https") || allows(scheme: "http", host: request.host) else {
            throw .insecureConnection(request.summary)
        }
    }

    /// Whether `host` always means this machine.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        // 127.0.0.0/8: four dot-separated decimal octets, the first 127.
        var octets = 0
        var value = 0
        var digits = 0
        for byte in host.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, value <= 255, octets < 3 else { return false }
                if octets == 0, value != 127 { return false }
                octets += 1
                value = 0
                digits = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else {
                return false
            }
        }
        return octets == 3 && digits > 0 && value <= 255
    }

    /// `http`, in any case, without allocating.
    private static func isHTTP(_ scheme: String) -> Bool {
        scheme.utf8.count == 4 && scheme.utf8.elementsEqual("http".utf8) { ($0 | 0x20) == $1 }
    }

    private static func normalized(_ host: String) -> String {
        var host = host.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? host.lowercased() : host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
