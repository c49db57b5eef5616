import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite("Transport security policy")
struct TransportSecurityPolicyTests {
    @Test func loopbackIsAlwaysAllowed() {
        let policy = TransportSecurityPolicy.default
        for host in ["localhost", "api.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "LOCALHOST"] {
            #expect(policy.allows(scheme: "http", host: host), "\(host)")
        }
        for host in ["example.com", "127.0.0.1.nip.io", "10.0.0.1", "localhost.example.com", "128.0.0.1"] {
            #expect(!policy.allows(scheme: "http", host: host), "\(host)")
            #expect(policy.allows(scheme: "https", host: host), "\(host)")
        }
    }

    @Test func loopbackIsReadFromTheWholeAuthority() {
        for authority in [
            "127.0.0.1:8080", "user:pw@127.0.0.1", "[::1]:443", "[::1]", "LocalHost:80", "api.localhost.", "127.9.9.9",
        ] {
            #expect(TransportSecurityPolicy.isLoopback(authority: authority), "\(authority)")
        }
        for authority in [
            "example.com:127", "127.0.0.1@example.com", "[::2]:80", "localhost.example.com:80", "notlocalhost",
        ] {
            #expect(!TransportSecurityPolicy.isLoopback(authority: authority), "\(authority)")
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
        guard case .insecureConnection(let request) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(request.url == "http://example.com/insecure")
        #expect(stub.requests.count == 1)
    }
}
