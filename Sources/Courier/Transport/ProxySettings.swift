import Foundation

/// Which proxy, if any, a request goes through: one for `http` URLs, one for `https` URLs, and
/// the hosts that are reached directly. `AsyncHTTPClientTransport.Configuration.proxy` takes it.
///
/// Read from the environment as curl reads it:
///
/// ```swift
/// let proxies = try ProxySettings(environment: ProcessInfo.processInfo.environment)
/// let proxy = proxies.proxy(forScheme: "https", host: "api.example.com")
/// ```
///
/// - `http_proxy` (lower case only: a CGI program gets a request's `Proxy:` header as
///   `HTTP_PROXY`, so curl ignores that name) for `http` URLs; `HTTPS_PROXY` or `https_proxy`
///   for `https` URLs; `ALL_PROXY` or `all_proxy` for either when its own is not set. The lower
///   case name wins when both are set.
/// - `NO_PROXY` or `no_proxy`: a comma-separated list of hosts reached directly. `*` alone
///   matches every host. A name matches itself and the names under it (`example.com` and
///   `.example.com` both match `example.com` and `api.example.com`, not `badexample.com`), never
///   an IP address; an IP address matches the same address (`::1` and `0:0::1` alike), and an
///   address with a prefix length (`10.0.0.0/8`, `fd00::/8`) the addresses in it. Case and a
///   trailing dot do not count.
public struct ProxySettings: Sendable, Hashable {
    /// The proxy for `http` URLs.
    public var http: ProxyServer?
    /// The proxy for `https` URLs (reached with `CONNECT`, the TLS handshake going to the origin).
    public var https: ProxyServer?
    /// The `NO_PROXY` entries, as given.
    public var bypass: [String]

    /// Settings with these proxies.
    public init(http: ProxyServer? = nil, https: ProxyServer? = nil, bypass: [String] = []) {
        self.http = http
        self.https = https
        self.bypass = bypass
    }

    /// One proxy for every request but those to `bypass`.
    public init(_ proxy: ProxyServer, bypass: [String] = []) {
        self.init(http: proxy, https: proxy, bypass: bypass)
    }

    /// No proxy.
    public static let none = ProxySettings()

    /// The settings the environment gives, as curl reads them (see the type).
    ///
    /// - Throws: ``ProxyError`` naming the variable whose value is not a proxy URL.
    public init(environment: [String: String]) throws(ProxyError) {
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty {
                    return (name, value)
                }
            }
            return nil
        }
        func server(_ names: String...) throws(ProxyError) -> ProxyServer? {
            guard let (name, text) = names.lazy.compactMap({ value($0) }).first else { return nil }
            do {
                return try ProxyServer(url: text)
            } catch {
                throw ProxyError(variable: name, reason: error.reason)
            }
        }
        let http = try server("http_proxy")
        let https = try server("https_proxy", "HTTPS_PROXY")
        // Read only when a scheme needs it, as curl does: an all_proxy this type cannot use
        // (socks5://) does not matter when both schemes have their own.
        let all = http == nil || https == nil ? try server("all_proxy", "ALL_PROXY") : nil
        self.init(http: http ?? all, https: https ?? all, bypass: Self.bypass(environment: environment))
    }

    /// The hosts `no_proxy` (or `NO_PROXY`) names, for those who take the proxy from elsewhere.
    public static func bypass(environment: [String: String]) -> [String] {
        let list = ["no_proxy", "NO_PROXY"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return list.map(bypassEntries(in:)) ?? []
    }

    /// Whether any proxy is set.
    public var isEmpty: Bool { http == nil && https == nil }

    /// The proxy for a request to `scheme://host`, or `nil` to reach it directly.
    public func proxy(forScheme scheme: String, host: String) -> ProxyServer? {
        let proxy = scheme.lowercased() == "https" ? https : http
        guard let proxy, !bypasses(host) else { return nil }
        return proxy
    }

    /// Whether `host` (a name, or an IP address with or without brackets) is reached directly.
    public func bypasses(_ host: String) -> Bool {
        // `*` alone means every host; among other entries it is a name like any other.
        if bypass == ["*"] { return true }
        let host = Self.normalized(host)
        return bypass.contains { entry in Self.matches(entry, host: host) }
    }

    // MARK: - NO_PROXY

    /// The entries of a `NO_PROXY` list: comma-separated, spaces around them ignored.
    public static func bypassEntries(in list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Lower case, without IPv6 brackets and a trailing dot.
    private static func normalized(_ host: String) -> String {
        var host = Substring(host.lowercased())
        if host.first == "[", host.last == "]" { host = host.dropFirst().dropLast() }
        while host.last == "." { host = host.dropLast() }
        return String(host)
    }

    private static func matches(_ entry: String, host: String) -> Bool {
        if let slash = entry.firstIndex(of: "/") {
            guard let length = Int(entry[entry.index(after: slash)...]) else { return false }
            return AddressPrefix(normalized(String(entry[..<slash])), length: length)?.contains(host) ?? false
        }
        // An address matches the same address, however it is written (`::1`, `0:0::1`); a
        // name never matches an address, nor an address a name.
        let address = normalized(entry)
        if let bytes = AddressPrefix.bytes(of: address) { return AddressPrefix.bytes(of: host) == bytes }
        if AddressPrefix.bytes(of: host) != nil { return false }
        var name = Substring(address)
        while name.first == "." { name = name.dropFirst() }
        guard !name.isEmpty else { return false }
        return host == name || host.hasSuffix("." + name)
    }
}

/// An address block such as `10.0.0.0/8` or `fd00::/8`.
struct AddressPrefix {
    let bytes: [UInt8]
    let length: Int

    init?(_ address: String, length: Int) {
        guard let bytes = Self.bytes(of: address), (0...bytes.count * 8).contains(length) else { return nil }
        self.bytes = bytes
        self.length = length
    }

    func contains(_ host: String) -> Bool {
        guard let other = Self.bytes(of: host), other.count == bytes.count else { return false }
        var remaining = length
        for (index, byte) in bytes.enumerated() where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if byte & mask != other[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The 4 or 16 bytes of an IP address in its usual text form, or `nil` for a name.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
