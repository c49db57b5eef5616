#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How close to this machine a host is, as browsers' Private Network Access ranks address
/// spaces: a request may not be redirected from a farther space to a closer one, so a server on
/// the internet cannot send the client to a service on this machine or the local network.
///
/// The host is judged as written: an IP address in any form the system's resolver reads
/// (`127.1`, `2130706433`, `0x7f.1`, `::ffff:127.0.0.1`) by its value, and a name by what it says
/// (`localhost` and `*.localhost` are local; any other name is public, since its address is not
/// known before the connection).
enum AddressSpace: Int, Comparable, Sendable {
    /// This machine: loopback (`127.0.0.0/8`, `::1`), `0.0.0.0`, `::`, `localhost`.
    case local = 0
    /// The local network: `10/8`, `172.16/12`, `192.168/16`, link-local `169.254/16`,
    /// shared `100.64/10`, IPv6 unique-local `fc00::/7`, link-local `fe80::/10` and local-use
    /// NAT64 `64:ff9b:1::/48`. (IPv4 addresses inside IPv6 ones — mapped, compatible, NAT64's
    /// `64:ff9b::/96`, 6to4's `2002::/16` — count as the address they carry.)
    case `private` = 1
    /// Everything else.
    case `public` = 2

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The space of `host` (lowercased, without IPv6 brackets).
    init(host: String) {
        if TransportSecurityPolicy.isLoopback(host) || host == "localhost." || host.hasSuffix(".localhost")
            || host.hasSuffix(".localhost.")
        {
            self = .local
            return
        }
        var ipv4 = in_addr()
        if inet_aton(host, &ipv4) != 0 {
            self = Self(ipv4: UInt32(bigEndian: ipv4.s_addr))
            return
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, host, &ipv6) == 1 {
            self = withUnsafeBytes(of: &ipv6) { Self(ipv6: Array($0)) }
            return
        }
        self = .public
    }

    private init(ipv4 address: UInt32) {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool {
            address >> (32 - bits) == network >> (32 - bits)
        }
        if within(0x7F00_0000, 8) || within(0x0000_0000, 8) {
            self = .local
        } else if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16)
            || within(0xA9FE_0000, 16) || within(0x6440_0000, 10)
        {
            self = .private
        } else {
            self = .public
        }
    }

    private init(ipv6 bytes: [UInt8]) {
        func ipv4(at start: Int) -> UInt32 {
            bytes[start..<(start + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let nat64 = [0x00, 0x64, 0xFF, 0x9B] as [UInt8]
        if bytes.prefix(15).allSatisfy({ $0 == 0 }), bytes[15] <= 1 {
            self = .local  // `::` and `::1`
        } else if bytes.prefix(10).allSatisfy({ $0 == 0 }),
            (bytes[10] == 0xFF && bytes[11] == 0xFF) || (bytes[10] == 0 && bytes[11] == 0)
        {
            // An IPv4 address mapped into IPv6 (`::ffff:127.0.0.1`), or in the older compatible
            // form (`::127.0.0.1`), is that address.
            self = Self(ipv4: ipv4(at: 12))
        } else if bytes.prefix(4).elementsEqual(nat64), bytes[4..<12].allSatisfy({ $0 == 0 }) {
            self = Self(ipv4: ipv4(at: 12))  // NAT64's well-known prefix, 64:ff9b::/96, reaches that address
        } else if bytes[0] == 0x20, bytes[1] == 0x02 {
            self = Self(ipv4: ipv4(at: 2))  // 6to4, 2002::/16, embeds the IPv4 address it reaches
        } else if (bytes.prefix(4).elementsEqual(nat64) && bytes[4] == 0 && bytes[5] == 1)
            || bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
        {
            self = .private  // local-use NAT64 (64:ff9b:1::/48), unique-local, link-local
        } else {
            self = .public
        }
    }
}
