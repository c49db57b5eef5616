import Courier
import CourierTestTraits
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import CourierServerKit

/// The names a local server answers to, and what counts as listening everywhere.
@Suite(.loadLimited)
struct HostGuardTests {
    static func request(host: String?) -> Request {
        Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: host, path: "/"),
            body: RequestBody(buffer: ByteBuffer())
        )
    }

    @Test(arguments: [
        "0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0", "::0", "[0::0]", "*", "", "0", "0x0", "0.0", "00.0.0.0",
    ])
    func anAllZeroAddressIsAWildcard(host: String) {
        #expect(ListeningAddress.isWildcard(host))
    }

    @Test(arguments: ["127.0.0.1", "::1", "10.0.0.1", "0.0.0.1", "::2", "localhost", "example.com", "0\u{0}evil", "1"])
    func anyOtherAddressIsNot(host: String) {
        #expect(!ListeningAddress.isWildcard(host))
    }

    @Test func aWildcardListenerIsReachedOnLoopback() throws {
        let bound = try #require(URL(string: "http://0.0.0.0:9000"))
        #expect(ListeningAddress.reachableURL(bound, listeningOn: "0.0.0.0").absoluteString == "http://127.0.0.1:9000")
        let v6 = try #require(URL(string: "http://[::]:9000"))
        #expect(ListeningAddress.reachableURL(v6, listeningOn: "::").absoluteString == "http://127.0.0.1:9000")
        let named = try #require(URL(string: "http://10.1.2.3:9000"))
        #expect(ListeningAddress.reachableURL(named, listeningOn: "10.1.2.3") == named)
    }

    @Test func aWildcardIsNoNameOfTheServer() {
        for listening in ["0.0.0.0", "0:0:0:0:0:0:0:0", "::"] {
            let hosts = HostGuard<BasicRequestContext>(listeningOn: listening)
            #expect(hosts.extraHost == nil, "\(listening)")
            #expect(hosts.authority(of: Self.request(host: "0.0.0.0:9000")) == nil)
            #expect(hosts.authority(of: Self.request(host: "[::]:9000")) == nil)
            #expect(hosts.authority(of: Self.request(host: "127.0.0.1:9000")) != nil)
        }
    }

    @Test func theListeningAddressAndLoopbackNamesAreAnswered() {
        let hosts = HostGuard<BasicRequestContext>(listeningOn: "10.1.2.3")
        #expect(hosts.authority(of: Self.request(host: "10.1.2.3:9000"))?.host == "10.1.2.3")
        #expect(hosts.authority(of: Self.request(host: "localhost:9000")) != nil)
        #expect(hosts.authority(of: Self.request(host: "[::1]:9000")) != nil)
        for foreign in ["10.1.2.4:9000", "evil.example", "127.0.0.1:80@evil.example", "10.1.2.3.:9000", nil] {
            #expect(hosts.authority(of: Self.request(host: foreign)) == nil, "\(foreign ?? "no Host")")
        }
        let v6 = HostGuard<BasicRequestContext>(listeningOn: "fd00::1")
        #expect(v6.authority(of: Self.request(host: "[fd00::1]:9000")) != nil)
    }
}
