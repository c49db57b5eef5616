import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import CourierURLSession
import Foundation
import HTTPTypes
import Testing

/// Cookies through a client, on both transports: none unless a store is given; with one, each
/// redirect hop gets its own URL's cookies, and a response that varies with them is not cached.
@Suite("Cookies", .loadLimited)
struct CookieTests {
    typealias Transport = TransportConformanceTests.Transport
    typealias Echo = TestServer.Echo

    static func withClient(
        _ transport: Transport,
        cookies: CookieStore?,
        cache: HTTPCache? = nil,
        _ body: @Sendable (HTTPClient, TestServer) async throws -> Void
    ) async throws {
        try await TestServer.withRunning { server in
            let configuration = HTTPClient.Configuration(baseURL: server.baseURL, cache: cache, cookies: cookies)
            switch transport {
            case .urlSession:
                let session = URLSessionTransport()
                defer { session.invalidate() }
                try await body(HTTPClient(transport: session, configuration: configuration), server)
            case .asyncHTTPClient, .proxied:
                try await AsyncHTTPClientTransport.withTransport { transport in
                    try await body(HTTPClient(transport: transport, configuration: configuration), server)
                }
            }
        }
    }

    static func set(_ cookies: String..., then: String? = nil) -> Endpoint<Data> {
        Endpoint(
            path: "/cookies/set",
            query: cookies.map { URLQueryItem(name: "c", value: $0) }
                + (then.map { [URLQueryItem(name: "then", value: $0)] } ?? [])
        )
    }

    @Test(arguments: [Transport.asyncHTTPClient, .urlSession])
    func noCookiesAreKeptWithoutAStore(_ transport: Transport) async throws {
        try await Self.withClient(transport, cookies: nil) { client, _ in
            _ = try await client.send(Self.set("session=1; Path=/"))
            let echo = try await client.send(Endpoint<Echo>(path: "/echo"))
            #expect(echo.headers["cookie"] == nil)
        }
    }

    @Test(arguments: [Transport.asyncHTTPClient, .urlSession])
    func eachRedirectHopGetsItsOwnURLsCookies(_ transport: Transport) async throws {
        let store = CookieStore()
        try await Self.withClient(transport, cookies: store) { client, server in
            // Set on the 302, sent on the next hop.
            let echo = try await client.send(
                Endpoint<Echo>(
                    path: "/cookies/set",
                    query: [
                        URLQueryItem(
                            name: "c",
                            value: "session=1; Path=/; HttpOnly; Expires=Wed, 09 Jun 2100 10:18:14 GMT"
                        ),
                        URLQueryItem(name: "c", value: "scoped=2; Path=/elsewhere"),
                        URLQueryItem(name: "then", value: "/echo"),
                    ]
                )
            )
            #expect(echo.headers["cookie"] == "session=1")
            // A caller's own Cookie goes first.
            let given = try await client.send(Endpoint<Echo>(path: "/echo", headers: [.cookie: "mine=0"]))
            #expect(given.headers["cookie"] == "mine=0; session=1")
            // Another origin (another host name for the same server) gets none of them; a cookie
            // the redirect sets is the redirecting host's.
            let other = "http://localhost:\(server.port)/echo"
            let moved = try await client.send(
                Endpoint<Echo>(
                    path: "/cookies/set",
                    query: [URLQueryItem(name: "c", value: "hop=3; Path=/"), URLQueryItem(name: "then", value: other)]
                )
            )
            #expect(moved.headers["cookie"] == nil)
            let stored = await store.all()
            #expect(stored.map(\.name) == ["scoped", "session", "hop"])
            #expect(Set(stored.map(\.domain)) == ["127.0.0.1"])
        }
    }

    @Test func theCacheNeitherServesNorStoresWhatCookiesMayChange() async throws {
        let store = CookieStore()
        let cache = try HTTPCache()
        try await Self.withClient(.asyncHTTPClient, cookies: store, cache: cache) { client, server in
            // Before any cookie is stored and after: a response that varies with Cookie is
            // never stored (the cache sees requests before the store adds cookies).
            let varies = Endpoint<Data>(
                path: "/cacheable/varies",
                query: [URLQueryItem(name: "cc", value: "max-age=600"), URLQueryItem(name: "vary", value: "Cookie")]
            )
            _ = try await client.send(varies)
            _ = try await client.send(Self.set("session=1; Path=/"))
            _ = try await client.send(varies)
            _ = try await client.send(varies)
            #expect(await server.events.hitCount("varies") == 3)
            // A response to a request that carried the store's cookies is stored only when it
            // says a shared cache may (as for Authorization).
            for (key, control) in [("personal", "max-age=600"), ("shared", "public, max-age=600")] {
                let endpoint = Endpoint<Data>(
                    path: "/cacheable/\(key)",
                    query: [URLQueryItem(name: "cc", value: control)]
                )
                _ = try await client.send(endpoint)
                _ = try await client.send(endpoint)
            }
            #expect(await server.events.hitCount("personal") == 2)
            #expect(await server.events.hitCount("shared") == 1)
        }
    }
}
