package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an address a server listens on says about the names it may be reached by.
package enum ListeningAddress {
    /// Whether `host` listens on every interface: `*`, nothing, or an address the system reads
    /// as all zeros, however it is written — as binding reads it (`getaddrinfo` with numeric
    /// hosts): `0.0.0.0`, `0`, `0x0`, `0.0`, `::`, `[::]`, `0:0:0:0:0:0:0:0`. Such an address
    /// names no host, so it is never a name a server answers to.
    package static func isWildcard(_ host: String) -> Bool {
        if host.isEmpty || host == "*" { return true }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard !bare.utf8.contains(0), bare.utf8.count <= 255 else { return false }
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bare, nil, &hints, &found) == 0, let first = found else { return false }
        defer { freeaddrinfo(found) }
        guard let address = first.pointee.ai_addr else { return false }
        switch Int32(first.pointee.ai_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr == 0 }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var bytes = pointer.pointee.sin6_addr
                return withUnsafeBytes(of: &bytes) { $0.allSatisfy { $0 == 0 } }
            }
        default:
            return false
        }
    }

    /// `host` as it stands in a URL's authority: an IPv6 address in brackets.
    package static func authority(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// The URL to show for a server listening on `host` at `url`: `url` itself, or for a
    /// wildcard address, which names no host (and which a local server refuses as a `Host`),
    /// the same URL on 127.0.0.1.
    package static func reachableURL(_ url: URL, listeningOn host: String) -> URL {
        guard isWildcard(host), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.host = "127.0.0.1"
        return components.url ?? url
    }
}
