import Courier
import CourierTestTraits
import Testing

/// One strict reading of `host[:port]`, for the client's targets and the servers' `Host`.
@Suite(.loadLimited)
struct HTTPAuthorityTests {
    @Test(
        arguments: [
            ("127.0.0.1:8090", "127.0.0.1", 8090, true),
            ("LOCALHOST", "localhost", nil, true),
            ("[::1]:80", "::1", 80, true),
            ("[::1]", "::1", nil, true),
            ("Example.COM:443", "example.com", 443, false),
            ("127.0.0.1.", "127.0.0.1.", nil, false),
            ("xn--bcher-kva.example", "xn--bcher-kva.example", nil, false),
        ] as [(String, String, Int?, Bool)]
    )
    func acceptsOneHostAndPort(text: String, host: String, port: Int?, loopback: Bool) throws {
        let authority = try #require(HTTPAuthority(parsing: text))
        #expect(authority.host == host)
        #expect(authority.port == port)
        #expect(authority.isLoopback == loopback)
    }

    @Test(arguments: [
        "127.0.0.1:80@evil.example:8090", "user@127.0.0.1", "127.0.0.1:8090:80", "127.0.0.1:", "127.0.0.1:0",
        "127.0.0.1:65536", "127.0.0.1:+80", "127.0.0.1:0x50", "127.0.0.1/evil", "127.0.0.1%2Fevil", "evil%2E.local",
        "127.0.0.1 evil", "127.0.0.1\tx", "::1", "[::1", "[evil]", "[::1%eth0]", "bücher.example", "", ":80",
        "127.0.0.1\\evil", "a#b", "a?b", "[[::f]]:4", "[[::1]]", "[::1]]", "[[::1]", "[:]", "[1::2::3]", "[::g]",
    ])
    func refusesWhatAParserCouldReadAsAnotherHost(text: String) {
        #expect(HTTPAuthority(parsing: text) == nil, "\(text.debugDescription)")
        #expect(HTTPAuthority.problem(with: text) != nil)
    }

    @Test func describesItselfAsAnAuthority() throws {
        #expect(try #require(HTTPAuthority(parsing: "[::1]:8080")).description == "[::1]:8080")
        #expect(try #require(HTTPAuthority(parsing: "Example.com")).description == "example.com")
    }

    /// An octet with a leading zero is not the address it looks like: `127.0.0.08` goes to DNS,
    /// `0177` is octal to inet_aton. Only `0` starts with 0.
    @Test func loopbackOctetsHaveNoLeadingZeros() throws {
        for text in ["127.0.0.08", "127.0.08.1", "0127.0.0.1", "127.00.0.1", "127.0.0.010"] {
            #expect(try #require(HTTPAuthority(parsing: text)).isLoopback == false, "\(text)")
        }
        for text in ["127.0.0.1", "127.0.0.0", "127.10.0.1", "127.255.255.255"] {
            #expect(try #require(HTTPAuthority(parsing: text)).isLoopback, "\(text)")
        }
    }
}
