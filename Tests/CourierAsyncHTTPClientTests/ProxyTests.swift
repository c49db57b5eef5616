import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Requests through a real proxy (Debian's tinyproxy) on 127.0.0.1: plain `http` sent whole
/// to it, `https` through a `CONNECT` tunnel with TLS to the origin, its credentials, its
/// refusals, and the hosts that bypass it.
@Suite("Proxies", .loadLimited, .enabled(if: TinyProxy.isAvailable, "needs tinyproxy"))
struct ProxyTests {
    typealias Echo = TestServer.Echo

    /// A client whose transport sends through `proxies`, to `baseURL`.
    static func withClient<Result: Sendable>(
        proxies: ProxySettings,
        baseURL: URL,
        trusting certificates: TestCertificates? = nil,
        timeout: Duration = .seconds(60),
        _ body: (HTTPClient) async throws -> Result
    ) async throws -> Result {
        let settings = AsyncHTTPClientTransport.Configuration(
            connectTimeout: .seconds(60),
            additionalTrustRoots: try certificates.map { try TrustedCertificates(pemFile: $0.authorityFile) } ?? .none,
            proxy: proxies
        )
        return try await AsyncHTTPClientTransport.withTransport(configuration: settings) { transport in
            try await body(HTTPClient(transport: transport, configuration: .init(baseURL: baseURL, timeout: timeout)))
        }
    }

    /// Certificates for 127.0.0.1 in a new directory, removed after `body`.
    static func withCertificates<Result: Sendable>(
        _ body: (TestCertificates) async throws -> Result
    ) async throws
        -> Result
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(try TestCertificates.make(in: directory))
    }

    // MARK: - Plain HTTP: the whole request to the proxy

    @Test func plainHTTPGoesWholeToTheProxyNotThroughATunnel() async throws {
        // CONNECT to the origin's port is refused, as Debian configures tinyproxy: only a
        // request sent whole (absolute form) gets through.
        try await TinyProxy.withRunning(connectPorts: [443]) { proxy in
            try await TestServer.withRunning { server in
                let proxies = ProxySettings(try ProxyServer(url: proxy.url))
                try await Self.withClient(proxies: proxies, baseURL: server.baseURL) { client in
                    let echo = try await client.send(
                        Endpoint<Echo>(path: "/echo", query: [URLQueryItem(name: "q", value: "a b")])
                    )
                    #expect(echo.headers["via"]?.contains("tinyproxy") == true, "\(echo.headers)")
                    #expect(echo.queryItems == [["q", "a b"]])
                    let posted = try await client.send(
                        Endpoint<Echo>(
                            method: .post,
                            path: "/echo",
                            body: .data(Data("through the proxy".utf8), contentType: "text/plain")
                        )
                    )
                    #expect(posted.method == "POST")
                    #expect(posted.body == "through the proxy")
                    // Streamed, and decoded as it arrives.
                    let response = try await client.stream(
                        Endpoint<Data>(path: "/stream/lines", query: [URLQueryItem(name: "count", value: "300")])
                    )
                    var count = 0
                    for try await _ in response.body.lines() { count += 1 }
                    #expect(count == 300)
                }
            }
        }
    }

    @Test func aResponseCutShortThroughTheProxyIsAnErrorNotAShortBody() async throws {
        try await TinyProxy.withRunning { proxy in
            try await TestServer.withRunning { server in
                let proxies = ProxySettings(try ProxyServer(url: proxy.url))
                try await Self.withClient(proxies: proxies, baseURL: server.baseURL) { client in
                    let error = await #expect(throws: RequestError.self) {
                        try await client.send(Endpoint<Data>(path: "/drop"))
                    }
                    #expect(error?.transportFailure?.kind == .connectionLost, "\(String(describing: error))")
                }
            }
        }
    }

    @Test func theTimeoutHoldsThroughTheProxy() async throws {
        try await TinyProxy.withRunning { proxy in
            try await TestServer.withRunning { server in
                let proxies = ProxySettings(try ProxyServer(url: proxy.url))
                try await Self.withClient(proxies: proxies, baseURL: server.baseURL, timeout: .milliseconds(300)) {
                    client in
                    let error = await #expect(throws: RequestError.self) {
                        try await client.send(
                            Endpoint<Data>(path: "/hang", query: [URLQueryItem(name: "id", value: "proxy")])
                        )
                    }
                    #expect(error?.transportFailure?.kind == .timedOut, "\(String(describing: error))")
                }
            }
        }
    }

    // MARK: - HTTPS: a tunnel, TLS with the origin

    @Test func httpsTunnelsWithTheTLSHandshakeToTheOrigin() async throws {
        try await Self.withCertificates { certificates in
            try await TinyProxy.withRunning { proxy in
                try await TestServer.withRunning(certificate: certificates) { server in
                    let proxies = ProxySettings(try ProxyServer(url: proxy.url))
                    try await Self.withClient(proxies: proxies, baseURL: server.baseURL, trusting: certificates) {
                        client in
                        let response = try await client.send(try client.prepare(Endpoint<Data>(path: "/echo")))
                        #expect(response.status == 200)
                        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
                        // Inside the tunnel the proxy sees bytes, not the request: it adds nothing.
                        #expect(echo.headers["via"] == nil)
                    }
                }
            }
        }
    }

    @Test func aRefusedTunnelSaysWhereTo() async throws {
        try await Self.withCertificates { certificates in
            try await TinyProxy.withRunning(connectPorts: [443]) { proxy in
                try await TestServer.withRunning(certificate: certificates) { server in
                    let proxies = ProxySettings(try ProxyServer(url: proxy.url))
                    try await Self.withClient(proxies: proxies, baseURL: server.baseURL, trusting: certificates) {
                        client in
                        let error = await #expect(throws: RequestError.self) {
                            try await client.send(Endpoint<Data>(path: "/echo"))
                        }
                        #expect(error?.transportFailure?.kind == .proxy)
                        let message = error?.message ?? ""
                        #expect(message.contains("refused to open a tunnel to 127.0.0.1:\(server.port)"), "\(message)")
                        #expect(message.contains("http://127.0.0.1:\(proxy.port)"), "\(message)")
                    }
                }
            }
        }
    }

    // MARK: - Credentials

    @Test func credentialsGoToTheProxyOnlyAndNeverIntoMessages() async throws {
        try await Self.withCertificates { certificates in
            try await TinyProxy.withRunning(credentials: ("courier", "s3cret-word")) { proxy in
                try await TestServer.withRunning(certificate: certificates) { tls in
                    try await TestServer.withRunning { plain in
                        let given = ProxySettings(try ProxyServer(url: proxy.url))
                        try await Self.withClient(proxies: given, baseURL: tls.baseURL, trusting: certificates) {
                            client in
                            let tunnelled = try await client.send(Endpoint<Echo>(path: "/echo"))
                            #expect(tunnelled.headers["proxy-authorization"] == nil)
                        }
                        try await Self.withClient(proxies: given, baseURL: plain.baseURL) { client in
                            let forwarded = try await client.send(Endpoint<Echo>(path: "/echo"))
                            #expect(forwarded.headers["via"]?.contains("tinyproxy") == true)
                            #expect(forwarded.headers["proxy-authorization"] == nil)
                        }
                        let missing = ProxySettings(ProxyServer(host: "127.0.0.1", port: proxy.port))
                        try await Self.withClient(proxies: missing, baseURL: tls.baseURL, trusting: certificates) {
                            client in
                            let error = await #expect(throws: RequestError.self) {
                                try await client.send(Endpoint<Data>(path: "/echo"))
                            }
                            #expect(error?.transportFailure?.kind == .proxy)
                            #expect(error?.message.contains("407") == true, "\(String(describing: error))")
                        }
                        // A plain request gets the proxy's own answer.
                        try await Self.withClient(proxies: missing, baseURL: plain.baseURL) { client in
                            let error = await #expect(throws: RequestError.self) {
                                try await client.send(Endpoint<Data>(path: "/echo"))
                            }
                            #expect(error?.httpFailure?.status == 407, "\(String(describing: error))")
                        }
                        let wrong = ProxySettings(
                            ProxyServer(
                                host: "127.0.0.1",
                                port: proxy.port,
                                credentials: .init(user: "courier", password: "not-the-s3cret")
                            )
                        )
                        try await Self.withClient(proxies: wrong, baseURL: tls.baseURL, trusting: certificates) {
                            client in
                            let error = await #expect(throws: RequestError.self) {
                                try await client.send(Endpoint<Data>(path: "/echo"))
                            }
                            let text = "\(String(describing: error)) \(error?.message ?? "")"
                            #expect(error?.transportFailure?.kind == .proxy)
                            #expect(!text.contains("not-the-s3cret"), "\(text)")
                            #expect(!text.contains("courier:"), "\(text)")
                        }
                    }
                }
            }
        }
    }

    // MARK: - Hosts reached directly

    @Test func bypassedHostsAreReachedDirectlyWithoutTheProxysCredentials() async throws {
        try await TestServer.withRunning { server in
            // Nothing listens at the proxy's address: any request sent to it would fail.
            let (socket, port) = try LoopbackPort.refusing()
            defer { close(socket) }
            let nowhere = ProxyServer(
                host: "127.0.0.1",
                port: port,
                credentials: .init(user: "courier", password: "s3cret-word")
            )
            let proxies = ProxySettings(nowhere, bypass: ["localhost", "127.0.0.0/8"])
            try await Self.withClient(proxies: proxies, baseURL: server.baseURL) { client in
                let echo = try await client.send(Endpoint<Echo>(path: "/echo"))
                #expect(echo.headers["via"] == nil)
                #expect(echo.headers["proxy-authorization"] == nil)
            }
            let unreachable = ProxySettings(nowhere)
            try await Self.withClient(proxies: unreachable, baseURL: server.baseURL) { client in
                let error = await #expect(throws: RequestError.self) {
                    try await client.send(Endpoint<Data>(path: "/echo"))
                }
                #expect(error?.transportFailure?.kind == .proxy)
                let message = error?.message ?? ""
                #expect(
                    message.contains("could not connect to the proxy http://REDACTED@127.0.0.1:\(port)"),
                    "\(message)"
                )
                #expect(!message.contains("s3cret"))
            }
        }
    }

    // MARK: - Framing of requests sent whole

    @Test func theForwardedRequestIsFramedByItsBodyNotByTheCallersFields() async throws {
        try await TinyProxy.withRunning(credentials: ("courier", "s3cret-word")) { proxy in
            try await TestServer.withRunning { server in
                let proxies = ProxySettings(try ProxyServer(url: proxy.url))
                try await Self.withClient(proxies: proxies, baseURL: server.baseURL) { client in
                    // A wrong Content-Length and a Host of the caller's are replaced.
                    let echo = try await client.send(
                        Endpoint<Echo>(
                            method: .post,
                            path: "/echo",
                            headers: [.contentLength: "10", HTTPField.Name("Host")!: "elsewhere.example"],
                            body: .data(Data("abc".utf8), contentType: "text/plain")
                        )
                    )
                    #expect(echo.body == "abc")
                    // A streamed body longer than it says is refused before it is sent.
                    let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                        continuation.yield(Data("0123456789".utf8))
                        continuation.finish()
                    }
                    let error = await #expect(throws: RequestError.self) {
                        try await client.send(
                            Endpoint<Data>(method: .post, path: "/echo", body: .stream(chunks, length: 4))
                        )
                    }
                    #expect(
                        error?.transportFailure?.detail.contains("bodyLengthMismatch") == true,
                        "\(String(describing: error))"
                    )
                }
            }
        }
    }

    @Test func aProxyThatNeverAnswersEndsAtTheDeadline() async throws {
        // Accepted by the kernel, never answered.
        let (socket, port) = try LoopbackPort.listening()
        defer { close(socket) }
        try await TestServer.withRunning { server in
            let proxies = ProxySettings(ProxyServer(host: "127.0.0.1", port: port))
            try await Self.withClient(proxies: proxies, baseURL: server.baseURL, timeout: .milliseconds(300)) {
                client in
                let error = await #expect(throws: RequestError.self) {
                    try await client.send(Endpoint<Data>(path: "/echo"))
                }
                #expect(error?.transportFailure?.kind == .timedOut, "\(String(describing: error))")
            }
        }
    }
}
