import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite("Transport security policy", .loadLimited)
struct TransportSecurityPolicyTests {
    @Test func loopbackIsAlwaysAllowed() {
        let policy = TransportSecurityPolicy.default
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "LOCALHOST"] {
            #expect(policy.allows(scheme: "http", host: host), "\(host)")
        }
        // Names a resolver may send to DNS are not taken for this machine.
        for host in [
            "example.com", "127.0.0.1.nip.io", "10.0.0.1", "localhost.example.com", "128.0.0.1", "api.localhost",
            "localhost.", "127.0.0.1.",
        ] {
            #expect(!policy.allows(scheme: "http", host: host), "\(host)")
            #expect(policy.allows(scheme: "https", host: host), "\(host)")
        }
    }

    static func request(_ authority: String, scheme: String = "http") -> PreparedRequest {
        PreparedRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/"))
    }

    @Test func loopbackIsReadFromTheWholeAuthority() throws {
        let policy = TransportSecurityPolicy.default
        for authority in ["127.0.0.1:8080", "[::1]:443", "[::1]", "LocalHost:80", "127.9.9.9"] {
            try policy.check(Self.request(authority))
        }
        for authority in [
            "example.com:127", "[::2]:80", "localhost.example.com:80", "notlocalhost", "127.0.0.1.example",
            "api.localhost", "localhost.:80", "127.0.0.1.:80",
        ] {
            let error = #expect(throws: RequestError.self, "\(authority)") { try policy.check(Self.request(authority)) }
            guard case .insecureConnection? = error else {
                Issue.record("\(authority): \(String(describing: error))")
                continue
            }
        }
    }

    /// What a URL parser could read as another host than the one judged is refused, over
    /// cleartext and TLS alike, before any connection.
    @Test func anAuthorityWithMoreThanOneReadingIsRefused() async throws {
        let ambiguous = [
            "user:pw@127.0.0.1", "127.0.0.1@example.com", "evil.example%2F.localhost", "evil.example/.localhost",
            "evil#.localhost", "evil?.localhost", "evil\\.localhost", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:",
            "127.0.0.1:80:80", "127.0.0.1:+80", "::1", "[::1", "[evil.localhost]", "[::1]x", "bücher.localhost",
            "a b.localhost", "evil\u{0}.localhost", "evil\t.localhost", "", ":80",
        ]
        for scheme in ["http", "https"] {
            for authority in ambiguous {
                let error = #expect(throws: RequestError.self, "\(authority)") {
                    try TransportSecurityPolicy.permissive.check(Self.request(authority, scheme: scheme))
                }
                guard case .invalidURL? = error else {
                    Issue.record("\(scheme)://\(authority): \(String(describing: error))")
                    continue
                }
            }
        }
        let stub = StubTransport()
        let client = HTTPClient(transport: stub)
        for authority in ambiguous {
            await #expect(throws: RequestError.self) { try await client.send(Self.request(authority)) }
        }
        #expect(stub.requests.isEmpty)
    }

    @Test func endpointHostsFollowTheSameRule() {
        let client = HTTPClient(transport: StubTransport())
        for host in ["evil.example%2F.localhost", "a/b", "a@b", "b\u{0}cher.example", "a b", "x:y:z:w"] {
            let error = #expect(throws: RequestError.self, "\(host)") {
                try client.prepare(Endpoint<Data>(scheme: "http", host: host, path: "/"))
            }
            guard case .invalidURL? = error else {
                Issue.record("\(host): \(String(describing: error))")
                continue
            }
        }
        // Names with U-labels are converted to their A-labels (IDNA).
        for host in [
            "example.com", "EXAMPLE.com", "::1", "[::1]", "xn--bcher-kva.example", "bücher.example",
            "under_score.example",
        ] {
            #expect(throws: Never.self, "\(host)") { try client.prepare(Endpoint<Data>(host: host, path: "/")) }
        }
    }

    @Test func exceptionsArePerDomainWithOptionalSubdomains() {
        let policy = TransportSecurityPolicy.default
            .allowingInsecureHTTP(to: "Intranet.Example")
            .allowingInsecureHTTP(to: "lan", includingSubdomains: true)
        #expect(policy.allows(scheme: "http", host: "intranet.example"))
        #expect(!policy.allows(scheme: "http", host: "wiki.intranet.example"))
        #expect(policy.allows(scheme: "http", host: "lan"))
        #expect(policy.allows(scheme: "http", host: "printer.office.lan"))
        #expect(!policy.allows(scheme: "http", host: "notlan"))
        #expect(TransportSecurityPolicy.permissive.allows(scheme: "http", host: "example.com"))
    }

    @Test func refusedBeforeAnyConnection() async throws {
        let stub = StubTransport()
        let client = HTTPClient(transport: stub)
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Data>(scheme: "http", host: "example.com", path: "/feed"))
        }
        #expect(stub.requests.isEmpty)
        #expect(
            error?.message
                == #"Refused cleartext HTTP to example.com (GET http://example.com/feed): use https://, or allow this host explicitly with TransportSecurityPolicy.allowingInsecureHTTP(to: "example.com")."#
        )
        #expect(error?.category == .network)
    }

    @Test func redirectsToCleartextAreCheckedOnEveryHop() async throws {
        let stub = StubTransport()
        stub.on(.get, "/start", .status(.found, headers: [.location: "http://example.com/insecure"]))
        let client = HTTPClient(transport: stub)
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Data>(host: "secure.test", path: "/start"))
        }
        guard case .insecureConnection(let request, _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(request.url == "http://example.com/insecure")
        #expect(stub.requests.count == 1)
    }

    /// Internationalized names travel as their A-labels (issue 28: Foundation decoded them and
    /// every `xn--` host was refused as "not ASCII"); U-labels a caller gives are converted.
    @Test func internationalizedNamesAreSentAsALabels() async throws {
        let stub = StubTransport()
        stub.on(.get, "/start", .status(.found, headers: [.location: "https://xn--bcher-kva.example/next"]))
        stub.on(.get, "/next", .status(.found, headers: [.location: "https://日本.jp/last"]))
        stub.on(.get, "/last", .text("ok"))
        let client = HTTPClient(transport: stub)
        for url in ["https://xn--bcher-kva.example/start", "https://bücher.example/start"] {
            stub.clearRequests()
            let text = try await client.send(Endpoint<Data>(url: try #require(URL(string: url))))
            #expect(text == Data("ok".utf8))
            #expect(
                stub.requests.map(\.head.authority) == [
                    "xn--bcher-kva.example", "xn--bcher-kva.example", "xn--wgv71a.jp",
                ]
            )
        }
        let named = try client.prepare(Endpoint<Data>(host: "Bücher.example", path: "/"))
        #expect(named.head.authority == "xn--bcher-kva.example")
        let base = HTTPClient(
            transport: stub,
            configuration: .init(baseURL: URL(string: "https://xn--bcher-kva.example/api"))
        )
        #expect(try base.prepare(Endpoint<Data>(path: "/x")).url == "https://xn--bcher-kva.example/api/x")
        // What is not a name in any script is still refused, saying how to write one.
        let error = #expect(throws: RequestError.self) {
            try client.prepare(Endpoint<Data>(host: "b\u{0}cher.example", path: "/"))
        }
        #expect(error?.message.contains("characters a host cannot have") == true)
    }

    /// The browsers' Private Network Access rule, by address space (issue 28).
    @Test(arguments: [
        ("example.com", "127.0.0.1", true), ("example.com", "localhost", true), ("example.com", "a.localhost", true),
        ("example.com", "10.1.2.3", true), ("example.com", "172.16.0.1", true), ("example.com", "172.32.0.1", false),
        ("example.com", "192.168.0.1", true), ("example.com", "169.254.169.254", true),
        ("example.com", "100.64.0.1", true),
        ("example.com", "2130706433", true), ("example.com", "0177.0.0.1", true), ("example.com", "0x7f.1", true),
        ("example.com", "127.1", true), ("example.com", "0.0.0.0", true), ("example.com", "::1", true),
        ("example.com", "::ffff:127.0.0.1", true), ("example.com", "::ffff:10.0.0.1", true),
        ("example.com", "fd12::1", true),
        ("example.com", "fe80::1", true), ("example.com", "2001:db8::1", false),
        ("example.com", "other.example", false),
        ("example.com", "8.8.8.8", false), ("10.0.0.1", "127.0.0.1", true), ("10.0.0.1", "10.0.0.2", false),
        ("127.0.0.1", "10.0.0.1", false), ("127.0.0.1", "localhost", false), ("192.168.1.1", "example.com", false),
        ("example.com", "::127.0.0.1", true), ("example.com", "64:ff9b::7f00:1", true),
        ("example.com", "64:ff9b::a00:1", true),
        ("example.com", "64:ff9b:1::1", true), ("example.com", "2002:7f00:1::", true),
        ("example.com", "2002:c0a8:101::", true),
        ("example.com", "64:ff9b::808:808", false), ("example.com", "2002:808:808::", false),
    ])
    func redirectsTowardThisMachineAreRefused(from: String, to: String, refused: Bool) throws {
        func request(_ host: String) -> PreparedRequest {
            let authority = host.contains(":") ? "[\(host)]" : host
            return PreparedRequest(head: HTTPRequest(method: .get, scheme: "https", authority: authority, path: "/"))
        }
        let policy = TransportSecurityPolicy.default
        if refused {
            #expect(throws: RequestError.self, "\(from) → \(to)") {
                try policy.checkRedirect(from: request(from), to: request(to))
            }
            #expect(throws: Never.self, "\(to) allowed") {
                try policy.allowingInsecureHTTP(to: to).checkRedirect(from: request(from), to: request(to))
            }
        } else {
            #expect(throws: Never.self, "\(from) → \(to)") {
                try policy.checkRedirect(from: request(from), to: request(to))
            }
        }
    }

    /// A redirect from https:// to http:// is a downgrade: refused even to loopback, where
    /// cleartext is otherwise allowed, unless the host was named or the policy is permissive
    /// (issue 31: a git server's redirect to cleartext).
    @Test(arguments: [
        ("https", "127.0.0.1", "http", "127.0.0.1", true), ("https", "example.com", "http", "example.com", true),
        ("https", "localhost", "http", "localhost", true), ("http", "127.0.0.1", "http", "localhost", false),
        ("https", "127.0.0.1", "https", "localhost", false), ("http", "127.0.0.1", "https", "127.0.0.1", false),
    ])
    func downgradesAreRefused(fromScheme: String, from: String, toScheme: String, to: String, refused: Bool) throws {
        func request(_ scheme: String, _ host: String) -> PreparedRequest {
            PreparedRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: host, path: "/"))
        }
        let policy = TransportSecurityPolicy.default
        if refused {
            let error = #expect(throws: RequestError.self, "\(fromScheme)://\(from) → \(toScheme)://\(to)") {
                try policy.checkRedirect(from: request(fromScheme, from), to: request(toScheme, to))
            }
            guard case .insecureConnection(_, .downgradeRedirect(from: from))? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(throws: Never.self) {
                try policy.allowingInsecureHTTP(to: to).checkRedirect(
                    from: request(fromScheme, from),
                    to: request(toScheme, to)
                )
            }
            #expect(throws: Never.self) {
                try TransportSecurityPolicy.permissive.checkRedirect(
                    from: request(fromScheme, from),
                    to: request(toScheme, to)
                )
            }
        } else {
            #expect(throws: Never.self) {
                try policy.checkRedirect(from: request(fromScheme, from), to: request(toScheme, to))
            }
        }
    }

    /// A body is not sent on to another origin by a 307/308 (it may hold a password); to the
    /// same origin, or as a 303's GET without it, the redirect is followed (issue 28's decision).
    @Test func aBodyStaysWithItsOrigin() async throws {
        let stub = StubTransport()
        stub.on(.post, "/elsewhere", .status(.temporaryRedirect, headers: [.location: "https://b.test/login"]))
        stub.on(.post, "/moved", .status(.permanentRedirect, headers: [.location: "/login"]))
        stub.on(.post, "/see-other", .status(.seeOther, headers: [.location: "https://b.test/done"]))
        stub.on(.post, "/login", .text("in"))
        stub.on(.get, "/done", .text("done"))
        let client = HTTPClient(transport: stub)
        func post(_ path: String, on client: HTTPClient) async throws(RequestError) -> Data {
            try await client.send(
                Endpoint<Data>(
                    method: .post,
                    host: "a.test",
                    path: path,
                    body: .data(Data(#"{"password":"hunter2"}"#.utf8), contentType: "application/json")
                )
            )
        }
        let error = await #expect(throws: RequestError.self) { try await post("/elsewhere", on: client) }
        guard case .insecureConnection(let request, .bodyToAnotherOrigin(let origin))? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(request.url == "https://b.test/login")
        #expect(origin == "a.test")
        #expect(stub.requests.map(\.url) == ["https://a.test/elsewhere"], "nothing was sent to b.test")

        #expect(try await post("/moved", on: client) == Data("in".utf8))
        #expect(stub.requests.last?.url == "https://a.test/login")
        #expect(stub.requests.last?.body == Data(#"{"password":"hunter2"}"#.utf8))
        #expect(try await post("/see-other", on: client) == Data("done".utf8))
        #expect(stub.requests.last?.body == nil)

        let trusting = HTTPClient(
            transport: stub,
            configuration: .init(securityPolicy: TransportSecurityPolicy.default.allowingInsecureHTTP(to: "b.test"))
        )
        #expect(try await post("/elsewhere", on: trusting) == Data("in".utf8))
        #expect(stub.requests.last?.url == "https://b.test/login")
    }

    /// What a response names (a store's artwork) is fetched only as a redirect from its origin
    /// would be followed (issue 28: a hostile store listed `http://127.0.0.1:…` artwork).
    @Test(arguments: [
        ("https://itunes.apple.com", "https://is1-ssl.mzstatic.com/a.jpg", true),
        ("https://itunes.apple.com", "http://is1-ssl.mzstatic.com/a.jpg", false),
        ("https://itunes.apple.com", "http://127.0.0.1:9400/a.jpg", false),
        ("https://itunes.apple.com", "https://127.0.0.1:9400/a.jpg", false),
        ("https://itunes.apple.com", "https://192.168.1.10/a.jpg", false),
        ("https://itunes.apple.com", "https://[::1]/a.jpg", false),
        ("https://itunes.apple.com", "ftp://example.com/a.jpg", false),
        ("http://127.0.0.1:8080", "http://127.0.0.1:9400/a.jpg", true),
        ("http://127.0.0.1:8080", "https://is1-ssl.mzstatic.com/a.jpg", true),
        ("https://192.168.1.10", "https://192.168.1.11/a.jpg", true),
    ])
    func linkedURLsFollowTheRedirectRules(origin: String, target: String, allowed: Bool) throws {
        let policy = TransportSecurityPolicy.default
        #expect(
            policy.allows(try #require(URL(string: target)), linkedFrom: try #require(URL(string: origin))) == allowed
        )
    }
}
