#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an address a server listens on says about the names it may be reached by.
package enum ListeningAddress {
    /// Whether `host` listens on every interface: an all-zero IPv4 or IPv6 address however it
    /// is written (`0.0.0.0`, `::`, `[::]`, `0:0:0:0:0:0:0:0`, `::0`), `*`, or nothing. Such an
    /// address names no host, so it is never a name a server answers to.
    package static func isWildcard(_ host: String) -> Bool {
        if host.isEmpty || host == "*" { return true }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return v4.s_addr == 0 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.allSatisfy { $0 == 0 } }
        }
        return false
    }

    /// `host` as it stands in a URL's authority: an IPv6 address in brackets.
    package static func authority(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
