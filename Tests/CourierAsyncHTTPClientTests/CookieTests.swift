import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
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
        middleware: [any Middleware] = [],
        _ body: @Sendable (HTTPClient, TestServer) async throws -> Void
    ) async throws {
        try await TestServer.withRunning { server in
            let configuration = HTTPClient.Configuration(
                baseURL: server.baseURL,
                middleware: middleware,
                cookies: cookies
            )
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
            // Another origin (another host name for the same server) gets none of them.
            let other = "http://localhost:\(server.port)/echo"
            let moved = try await client.send(
                Endpoint<Echo>(path: "/redirect-to", query: [URLQueryItem(name: "url", value: other)])
            )
            #expect(moved.headers["cookie"] == nil)
            #expect(await store.all().map(\.name) == ["scoped", "session"])
        }
    }

    @Test func aResponseThatVariesWithCookiesIsNotCachedWhenTheStoreSentThem() async throws {
        let store = CookieStore()
        let cache = try HTTPCache()
        try await Self.withClient(.asyncHTTPClient, cookies: store, middleware: [Caching(cache)]) { client, server in
            _ = try await client.send(Self.set("session=1; Path=/"))
            let endpoint = Endpoint<Data>(
                path: "/cacheable/varies",
                query: [
                    URLQueryItem(name: "cc", value: "max-age=600"), URLQueryItem(name: "vary", value: "Cookie"),
                ]
            )
            _ = try await client.send(endpoint)
            _ = try await client.send(endpoint)
            #expect(await server.events.hitCount("varies") == 2)
            let plain = Endpoint<Data>(
                path: "/cacheable/plain",
                query: [URLQueryItem(name: "cc", value: "max-age=600")]
            )
            _ = try await client.send(plain)
            _ = try await client.send(plain)
            #expect(await server.events.hitCount("plain") == 1)
        }
    }
}
