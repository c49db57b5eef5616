public import Foundation
import HTTPTypes

/// Which hosts may be reached over cleartext `http://` — App Transport Security, on every
/// platform.
///
/// By default HTTPS is required everywhere except loopback: `localhost`, `127.0.0.0/8` and
/// `::1`, exactly as written. Names that only usually mean this machine (`api.localhost`,
/// `localhost.` with a trailing dot) may be sent to DNS by the system's resolver, so they need
/// an exception like any other host. A refused request fails with
/// ``RequestError/insecureConnection(_:reason:)`` before any connection is made, and the message
/// says how to allow the host.
///
/// Redirects follow the browsers' Private Network Access rule too: a server on the internet may
/// not redirect to this machine or the local network (`http://127.0.0.1:…`, `https://192.168.1.1/`),
/// nor a server on the local network to this machine, unless the target host is allowed here.
/// A redirect from `https://` to `http://` is refused unless the target host is allowed here,
/// loopback included: the answers to a request that began encrypted are not taken in cleartext.
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

    /// Returns a policy that also allows cleartext HTTP to `domain`, and redirects to it from
    /// servers farther away (a public server's redirect to a host on the local network, which
    /// is refused otherwise): a host you name is one you trust.
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
        !Self.isHTTP(scheme) || allowsCleartext(to: Self.normalized(host))
    }

    /// Throws ``RequestError/insecureConnection(_:reason:)`` when the policy refuses the request, and
    /// ``RequestError/invalidURL(_:reason:)`` when its authority is not one host that every URL
    /// parser reads alike: the host judged is the host connected to.
    public func check(_ request: PreparedRequest) throws(RequestError) {
        let target = try RequestTarget(request)
        guard target.scheme == "https" || allowsCleartext(to: target.host) else {
            throw .insecureConnection(request.summary)
        }
    }

    /// Throws ``RequestError/insecureConnection(_:reason:)`` with
    /// ``InsecureConnectionReason/privateNetworkRedirect(from:)`` when a redirect goes from a
    /// farther address space to a closer one — from the internet to this machine or the local
    /// network, or from the local network to this machine (``AddressSpace``, the browsers'
    /// Private Network Access rule) — unless the target host is one the caller allowed
    /// explicitly (``allowingInsecureHTTP(to:includingSubdomains:)``).
    ///
    /// A redirect from `https://` to `http://` is refused too, with
    /// ``InsecureConnectionReason/downgradeRedirect(from:)``, unless the target host is allowed
    /// explicitly or the policy is ``permissive``: loopback's exemption does not cover a
    /// downgrade.
    ///
    /// A redirect that would send the request's body on to another origin (a 307 or 308 after a
    /// POST, say) is refused too, with ``InsecureConnectionReason/bodyToAnotherOrigin(from:)``,
    /// unless the target host is allowed: the body may hold credentials.
    func checkRedirect(from request: PreparedRequest, to next: PreparedRequest) throws(RequestError) {
        let from = try RequestTarget(request)
        let to = try RequestTarget(next)
        guard !isException(to.host) else { return }
        if AddressSpace(host: to.host) < AddressSpace(host: from.host) {
            throw .insecureConnection(next.summary, reason: .privateNetworkRedirect(from: from.host))
        }
        // From https:// to http:// the answers could be forged on the way, even from this
        // machine's loopback: only a host named explicitly (or a permissive policy) takes it.
        if from.scheme == "https", to.scheme == "http", !allowsAnyInsecureHTTP {
            throw .insecureConnection(next.summary, reason: .downgradeRedirect(from: from.host))
        }
        if !from.isSameOrigin(as: to), next.body?.isEmpty == false || next.streamedBody != nil {
            throw .insecureConnection(next.summary, reason: .bodyToAnotherOrigin(from: from.host))
        }
    }

    /// Whether a URL that a response from `origin` names (an image in search results, a link)
    /// may be fetched by the rules a redirect from `origin` to it would be: cleartext only where
    /// allowed, no address closer to this machine than `origin`'s (a store on the internet
    /// cannot point the client at `http://127.0.0.1:…` or the local network), and nothing in
    /// cleartext that an `https://` origin names, unless the host was allowed explicitly.
    ///
    /// ```swift
    /// let store = URL(string: "https://itunes.apple.com")!
    /// policy.allows(URL(string: "https://is1-ssl.mzstatic.com/a.jpg")!, linkedFrom: store)  // true
    /// policy.allows(URL(string: "http://127.0.0.1:9400/a.jpg")!, linkedFrom: store)          // false
    /// ```
    ///
    /// - Parameters:
    ///   - target: The URL named.
    ///   - origin: Where the response that named it came from.
    /// - Returns: Whether fetching `target` is allowed.
    public func allows(_ target: URL, linkedFrom origin: URL) -> Bool {
        func request(_ url: URL) -> PreparedRequest? {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                let scheme = components.scheme?.lowercased(), let host = components.encodedHost
            else { return nil }
            let authority = Authority.format(host: host, port: components.port)
            return PreparedRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/"))
        }
        guard let from = request(origin), let to = request(target), (try? check(to)) != nil else { return false }
        return (try? checkRedirect(from: from, to: to)) != nil
    }

    /// `host` is lowercased, without brackets or a trailing dot.
    private func allowsCleartext(to host: String) -> Bool {
        allowsAnyInsecureHTTP || Self.isLoopback(host) || isException(host)
    }

    /// Whether the caller named `host` (lowercased, without brackets) as one it trusts.
    private func isException(_ host: String) -> Bool {
        exceptions.contains { exception in
            host == exception.domain || (exception.includesSubdomains && host.hasSuffix("." + exception.domain))
        }
    }

    /// Whether `authority` (`host[:port]`, as a `Host` field gives it) names this machine; an
    /// authority Courier would refuse to send a request to never does. For servers that accept
    /// only requests addressed to this machine (a `Host` check against DNS rebinding).
    ///
    /// ```swift
    /// TransportSecurityPolicy.isLoopback(authority: "127.0.0.1:8090")   // true
    /// TransportSecurityPolicy.isLoopback(authority: "[::1]")            // true
    /// TransportSecurityPolicy.isLoopback(authority: "example.com")      // false
    /// ```
    ///
    /// - Parameter authority: `host` or `host:port`, with IPv6 addresses in brackets.
    /// - Returns: Whether it names a loopback address or `localhost`.
    public static func isLoopback(authority: String) -> Bool {
        HTTPAuthority(parsing: authority)?.isLoopback ?? false
    }

    /// Whether `host` (lowercased, without brackets) always means this machine.
    static func isLoopback(_ host: String) -> Bool {
        var host = host
        return host.withUTF8 { isLoopback(host: $0[...]) }
    }

    /// `localhost` (any case), `::1` or 127.0.0.0/8 in dotted decimal, every octet without a
    /// leading zero (`127.0.0.08` is sent to DNS, `127.0.0.010` is octal to some parsers).
    private static func isLoopback(host: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        if host.lazy.map(lowercased).elementsEqual("localhost".utf8) { return true }
        if host.elementsEqual("::1".utf8) { return true }
        // 127.0.0.0/8: four dot-separated decimal octets, the first 127.
        var octets = 0
        var value = 0
        var digits = 0
        for byte in host {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, value <= 255, octets < 3 else { return false }
                if octets == 0, value != 127 { return false }
                octets += 1
                value = 0
                digits = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 {
                // `08` is no octet a resolver reads (it is octal, or a name for DNS): only `0` starts with 0.
                if digits == 1, value == 0 { return false }
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

    /// Lowercased, without IPv6 brackets; on bytes, as it runs for every cleartext request.
    private static func normalized(_ host: String) -> String {
        var bytes = Substring(host).utf8[...]
        if bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") { bytes = bytes.dropFirst().dropLast() }
        let trimmed = String(Substring(bytes))
        return trimmed.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? trimmed.lowercased() : trimmed
    }
}
