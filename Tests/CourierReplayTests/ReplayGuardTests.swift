import Courier
import CourierCassettes
import CourierReplay
import CourierTestTraits
import Foundation
import HTTPTypes
import Hummingbird
import Testing

/// What `courier replay` answers (``ReplayServer``), in-process: only requests addressed to this machine, never
/// another site's page, and never the recorded `Access-Control-*` grants (issue 28).
@Suite(.loadLimited)
struct ReplayGuardTests {
    static let cassette = Cassette(interactions: [
        .init(
            request: .init(method: "GET", url: "https://api.test/data"),
            response: .init(
                status: 200,
                headers: [
                    ["Content-Type", "application/json"], ["Access-Control-Allow-Origin", "*"],
                    ["Access-Control-Allow-Credentials", "true"], ["ETag", "\"v1\""],
                ],
                body: .init(Data(#"{"secret":false}"#.utf8))
            )
        )
    ])

    static func answer(
        host: String?,
        fields: HTTPFields = [:],
        listeningOn listening: String = "127.0.0.1"
    )
        async throws -> Response
    {
        let head = HTTPRequest(method: .get, scheme: "http", authority: host, path: "/data", headerFields: fields)
        return try await ReplayServer(cassette, host: listening).respond(
            to: Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        )
    }

    @Test func recordedCrossOriginGrantsAreNotSent() async throws {
        let response = try await Self.answer(host: "127.0.0.1:9000")
        #expect(response.status == .ok)
        #expect(!response.headers.contains { $0.name.canonicalName.hasPrefix("access-control-") })
        #expect(response.headers[.eTag] == "\"v1\"")
    }

    @Test(arguments: [
        "127.0.0.1:80@evil.example:9000", "127.0.0.1:9000:80", "evil.example:9000", "127.0.0.1.:9000", "127.0.0.1%2F",
    ])
    func aHostThatIsNotThisMachineIsMisdirected(host: String) async throws {
        #expect(try await Self.answer(host: host).status == .misdirectedRequest)
    }

    @Test func theListeningAddressIsOneOfItsNames() async throws {
        #expect(try await Self.answer(host: "10.1.2.3:9000", listeningOn: "10.1.2.3").status == .ok)
        #expect(try await Self.answer(host: "[::1]:9000", listeningOn: "::1").status == .ok)
        #expect(try await Self.answer(host: "10.1.2.3@x:9000", listeningOn: "10.1.2.3").status == .misdirectedRequest)
    }

    @Test func anotherSitesPageIsRefused() async throws {
        let foreign = try await Self.answer(host: "127.0.0.1:9000", fields: [.origin: "https://evil.example"])
        #expect(foreign.status == .forbidden)
        let crossSite = try await Self.answer(host: "127.0.0.1:9000", fields: [.secFetchSite: "cross-site"])
        #expect(crossSite.status == .forbidden)
        let own = try await Self.answer(
            host: "127.0.0.1:9000",
            fields: [.origin: "http://127.0.0.1:9000", .secFetchSite: "same-origin"]
        )
        #expect(own.status == .ok)
        // Port 80 written in one and not the other is the same origin.
        let defaultPort = try await Self.answer(host: "127.0.0.1:80", fields: [.origin: "http://127.0.0.1"])
        #expect(defaultPort.status == .ok)
        let otherPort = try await Self.answer(host: "127.0.0.1:9000", fields: [.origin: "http://127.0.0.1:9001"])
        #expect(otherPort.status == .forbidden)
    }
}
