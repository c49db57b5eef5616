import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import CourierURLSession
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// One suite, every case against both transports, through a real HTTP server on 127.0.0.1.
@Suite("Transport conformance", .loadLimited)
struct TransportConformanceTests {
    enum Transport: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case asyncHTTPClient
        case urlSession
        /// The AsyncHTTPClient transport through a real proxy (tinyproxy), which the requests,
        /// plain `http`, reach whole (``ProxyTests`` has the rest).
        case proxied
        var testDescription: String { rawValue }

        /// The transports these tests run: `proxied` where tinyproxy is installed.
        static let allCases: [Self] =
            TinyProxy.isAvailable ? [.asyncHTTPClient, .urlSession, .proxied] : [.asyncHTTPClient, .urlSession]

        /// Whether the AsyncHTTPClient transport sends the requests (directly or through the proxy).
        var isAsyncHTTPClient: Bool { self != .urlSession }
    }

    struct Movie: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var releaseDate: String
        var tags: [String]
    }

    typealias Echo = TestServer.Echo

    static let movie = Movie(id: 3, title: "Dune", releaseDate: "1965-08-01", tags: ["sci-fi", "classic"])

    // MARK: - Success

    @Test(arguments: Transport.allCases)
    func decodesJSON(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let movie = try await client.send(Endpoint<Movie>(path: "/json").convertingFromSnakeCase())
            #expect(movie == Self.movie)
        }
    }

    @Test(arguments: Transport.allCases)
    func returnsStatusAndHeadersWithTheValue(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let response = try await client.response(for: Endpoint<Data>(path: "/json"))
            #expect(response.head.status == .ok)
            #expect(response.head.headerFields[.contentType] == "application/json")
            #expect(
                response.value
                    == Data(#"{"id":3,"title":"Dune","release_date":"1965-08-01","tags":["sci-fi","classic"]}"#.utf8)
            )
            #expect(response.url == "http://127.0.0.1:\(server.port)/json")
        }
    }

    @Test(arguments: Transport.allCases)
    func postsJSONBody(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let echo = try await client.send(
                Endpoint<Echo>(method: .post, path: "/echo", body: .json(Self.movie, encoder: encoder))
            )
            #expect(echo.method == "POST")
            #expect(echo.headers["content-type"] == "application/json")
            #expect(echo.body == #"{"id":3,"releaseDate":"1965-08-01","tags":["sci-fi","classic"],"title":"Dune"}"#)
        }
    }

    @Test(arguments: Transport.allCases)
    func postsURLEncodedForm(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let body = RequestBody.form([("q", "a b&c=d+é"), ("empty", "")])
            let echo = try await client.send(Endpoint<Echo>(method: .post, path: "/echo", body: body))
            #expect(echo.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(echo.body == "q=a+b%26c%3Dd%2B%C3%A9&empty=")
        }
    }

    @Test(arguments: Transport.allCases)
    func postsMultipartForm(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            var form = MultipartForm(boundary: "XyZ")
            form.append("caption", "At the library")
            form.append("file", filename: "notes.txt", contentType: "text/plain", data: Data("line 1\nline 2".utf8))
            let echo = try await client.send(Endpoint<Echo>(method: .put, path: "/echo", body: .multipart(form)))
            #expect(echo.method == "PUT")
            #expect(echo.headers["content-type"] == "multipart/form-data; boundary=XyZ")
            #expect(
                echo.body
                    == "--XyZ\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nAt the library\r\n"
                    + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.txt\"\r\n"
                    + "Content-Type: text/plain\r\n\r\nline 1\nline 2\r\n--XyZ--\r\n"
            )
        }
    }

    @Test(arguments: Transport.allCases)
    func queryItemsArriveExactlyAsGiven(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let terms = ["rock & roll", "a+b=c", "#1 hits", "100%", "🎸 日本語 Ελληνικά", "?/:@"]
            let endpoint = Endpoint<Echo>(path: "/echo", query: terms.map { URLQueryItem(name: "term", value: $0) })
            let echo = try await client.send(endpoint)
            #expect(echo.queryItems == terms.map { ["term", $0] })
        }
    }

    @Test(arguments: Transport.allCases)
    func everyMethodIsSent(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            for method: HTTPRequest.Method in [.get, .post, .put, .patch, .delete, .options] {
                let echo = try await client.send(Endpoint<Echo>(method: method, path: "/echo"))
                #expect(echo.method == method.rawValue)
            }
            let head = try await client.response(for: Endpoint<Data>(method: .head, path: "/echo"))
            #expect(head.head.status == .ok)
            #expect(head.head.headerFields[.contentType] == "application/json")
            #expect(head.value.isEmpty)
        }
    }

    @Test(arguments: Transport.allCases)
    func acceptsNoContent(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let response = try await client.response(for: Endpoint<Void>(path: "/no-content"))
            #expect(response.head.status == .noContent)
        }
    }

    /// A timeout beyond what the transport's clock can count is clamped, not a trap.
    @Test(arguments: Transport.allCases)
    func anEnormousTimeoutIsClampedNotATrap(_ transport: Transport) async throws {
        for timeout in [Duration.seconds(10_000_000_000), .seconds(Int64.max)] {
            try await withClient(transport, timeout: timeout) { client, _ in
                let movie = try await client.send(Endpoint<Movie>(path: "/json").convertingFromSnakeCase())
                #expect(movie == Self.movie)
            }
        }
    }

    // MARK: - Redirects

    @Test(arguments: Transport.allCases)
    func followsRedirects(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let response = try await client.response(
                for: Endpoint<Movie>(path: "/redirect/3").convertingFromSnakeCase()
            )
            #expect(response.value == Self.movie)
            #expect(response.url == "http://127.0.0.1:\(server.port)/redirect/0")
        }
    }

    @Test(arguments: Transport.allCases)
    func limitsRedirects(_ transport: Transport) async throws {
        try await withClient(transport, maxRedirects: 2) { client, server in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/redirect/3"))
            }
            let failure = try #require(error?.transportFailure)
            #expect(failure.kind == .tooManyRedirects)
            #expect(
                error?.message
                    == "GET http://127.0.0.1:\(server.port)/redirect/3 redirected too many times (more than 2); check the URL for a redirect loop."
            )
        }
    }

    @Test(arguments: Transport.allCases)
    func seeOtherTurnsPostIntoGet(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let echo = try await client.send(Endpoint<Echo>(method: .post, path: "/see-other", body: .json(["a": 1])))
            #expect(echo.method == "GET")
            #expect(echo.body == "")
            #expect(echo.headers["content-type"] == nil)
        }
    }

    @Test(arguments: Transport.allCases)
    func redirectToAnotherOriginDropsCredentials(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let sameOrigin = Endpoint<Echo>(path: "/redirect-to", query: [.init(name: "url", value: "/echo")])
                .setting(.authorization, to: "Bearer secret")
            #expect(try await client.send(sameOrigin).headers["authorization"] == "Bearer secret")

            let otherOrigin = Endpoint<Echo>(
                path: "/redirect-to",
                query: [.init(name: "url", value: "http://localhost:\(server.port)/echo")]
            ).setting(.authorization, to: "Bearer secret")
            let echo = try await client.send(otherOrigin)
            #expect(echo.path == "/echo")
            #expect(echo.headers["authorization"] == nil)
        }
    }

    /// A Location whose host a URL parser could read as another host is refused before any
    /// connection: the policy must judge the host that would be connected to.
    @Test(arguments: Transport.allCases)
    func redirectsToAmbiguousHostsAreRefused(_ transport: Transport) async throws {
        let policy = TransportSecurityPolicy.default.allowingInsecureHTTP(
            to: "allowed-domain",
            includingSubdomains: true
        )
        try await withClient(transport, securityPolicy: policy) { client, server in
            let locations = [
                "http://evil.example%2F.localhost/x", "http://evil.example%23.localhost/x",
                "http://evil.example%3F.localhost/x", "http://evil.example%2F.allowed-domain/x",
                "http://evil.example%40127.0.0.1/x", "http://evil%2e.localhost/x", "//evil.example%2F.localhost/x",
                "http://b%C3%BCcher.localhost/x", "ftp://127.0.0.1/x", "http://127.0.0.1:0/x",
                "http://user:pw@127.0.0.1/x", "http://user@localhost/x",
            ]
            // FoundationNetworking on Linux traps on some protocol-relative Locations before any
            // delegate is asked (README, Security); the AsyncHTTPClient transport is not affected.
            for location in locations where transport.isAsyncHTTPClient || !location.hasPrefix("//") {
                let endpoint = Endpoint<Data>(path: "/redirect-to", query: [.init(name: "url", value: location)])
                let error = await #expect(throws: RequestError.self, "\(location)") { try await client.send(endpoint) }
                switch error {
                case .invalidURL(_, let reason)?:
                    #expect(reason.hasPrefix("GET http://127.0.0.1:\(server.port)/redirect-to?url="), "\(reason)")
                case .insecureConnection?: break
                default: Issue.record("\(location): \(String(describing: error))")
                }
            }
            // An unambiguous redirect is still followed.
            let allowed = Endpoint<Data>(
                path: "/redirect-to",
                query: [.init(name: "url", value: "http://localhost:\(server.port)/json")]
            )
            let body = try await client.send(allowed)
            #expect(!body.isEmpty)
        }
    }

    /// Every credential by the redaction rule stays with its origin; other fields travel on.
    @Test(arguments: Transport.allCases)
    func credentialsStayWithTheirOrigin(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let secrets: [(HTTPField.Name, String)] = [
                (.authorization, "Bearer secret"), (.proxyAuthorization, "Basic c2VjcmV0"), (.cookie, "session=secret"),
                (HTTPField.Name("X-API-Key")!, "k1"), (HTTPField.Name("X-Auth-Token")!, "t1"),
                (HTTPField.Name("X-Session-Id")!, "s1"), (HTTPField.Name("X-Client-Secret")!, "c1"),
                (HTTPField.Name("X-Vault-Password")!, "p1"), (HTTPField.Name("Ocp-Apim-Subscription-Key")!, "o1"),
                (HTTPField.Name("X-Functions-Key")!, "f1"),
            ]
            func endpoint(to url: String) -> Endpoint<Echo> {
                var endpoint = Endpoint<Echo>(path: "/redirect-to", query: [.init(name: "url", value: url)])
                for (name, value) in secrets { endpoint = endpoint.setting(name, to: value) }
                return endpoint.setting(.accept, to: "application/json").setting(HTTPField.Name("X-Trace")!, to: "t")
                    .setting(HTTPField.Name("Idempotency-Key")!, to: "i1")
            }
            let same = try await client.send(endpoint(to: "http://127.0.0.1:\(server.port)/echo"))
            for (name, value) in secrets { #expect(same.headers[name.canonicalName] == value, "\(name)") }

            // localhost is another host than 127.0.0.1, so another origin, though the same server.
            let other = try await client.send(endpoint(to: "http://localhost:\(server.port)/echo"))
            #expect(other.path == "/echo")
            for (name, _) in secrets {
                #expect(other.headers[name.canonicalName] == nil, "\(name) followed the redirect")
            }
            #expect(other.headers["accept"] == "application/json")
            #expect(other.headers["x-trace"] == "t")
            #expect(other.headers["idempotency-key"] == "i1")
        }
    }

    // MARK: - Error statuses

    @Test(arguments: Transport.allCases)
    func unauthorized(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/unauthorized"))
            }
            guard case .unauthorized(let failure) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(failure.status == 401)
            #expect(
                error?.message
                    == "GET http://127.0.0.1:\(server.port)/unauthorized returned 401 Unauthorized: check your credentials "
                    + "(token or API key) and that they grant access to this resource. The server said: "
                    + "Invalid API key: You must be granted a valid key."
            )
        }
    }

    @Test(arguments: Transport.allCases)
    func notFoundWithHTMLPage(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/missing"))
            }
            guard case .clientError(let failure) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(failure.status == 404)
            #expect(failure.reason == "Not Found")
            #expect(failure.bodyExcerpt == "404 Not Found Not Found The page you asked for is not here.")
            #expect(error?.category == .clientError)
        }
    }

    @Test(arguments: Transport.allCases)
    func htmlWhereJSONWasExpected(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/html"))
            }
            guard case .unexpectedContentType(let failure, _) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(failure.contentType == "text/html; charset=utf-8")
            #expect(
                error?.message
                    == "GET http://127.0.0.1:\(server.port)/html returned text/html; charset=utf-8 where application/json "
                    + "was expected: check the URL; this may be an error page or a login portal. The server said: Welcome"
            )
        }
    }

    @Test(arguments: Transport.allCases)
    func serverError(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/fail"))
            }
            guard case .serverError(let failure) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(failure.status == 500)
            #expect(failure.bodyExcerpt == "database unavailable")
            #expect(failure.retryAfter == nil)
        }
    }

    @Test(arguments: Transport.allCases)
    func serviceUnavailableWithRetryAfter(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/unavailable"))
            }
            guard case .serverError(let failure) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(failure.status == 503)
            #expect(failure.retryAfter == .seconds(1))
            #expect(
                error?.message
                    == "GET http://127.0.0.1:\(server.port)/unavailable returned 503 Service Unavailable: the server failed "
                    + "(it asks to retry after 1s); try again later. The server said: down for maintenance"
            )
        }
    }

    @Test(arguments: Transport.allCases)
    func decodingFailureNamesThePath(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/bad-json"))
            }
            let failure = try #require(error?.decodingFailure)
            #expect(failure.codingPath == "id")
            #expect(failure.bodyExcerpt == #"{"id":"three","title":"Dune"}"#)
            #expect(failure.type.hasSuffix("Movie"))
        }
    }

    // MARK: - Limits and failures

    @Test(arguments: Transport.allCases)
    func slowResponseTimesOut(_ transport: Transport) async throws {
        try await withClient(transport, timeout: .milliseconds(300)) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Movie>(path: "/slow", query: [.init(name: "ms", value: "5000")]))
            }
            let failure = try #require(error?.transportFailure)
            #expect(failure.kind == .timedOut)
            #expect(failure.detail == "after 0.3s")
        }
    }

    /// The timeout is the whole request's (issue 28): a body that trickles a byte every 20 ms
    /// ends at it, as does a chain of slow redirects, each of which used to get a timeout of its
    /// own.
    @Test(arguments: Transport.allCases)
    func theTimeoutCoversTheBodyAndEveryHop(_ transport: Transport) async throws {
        try await withClient(transport, timeout: .milliseconds(700)) { client, server in
            let trickle = await #expect(throws: RequestError.self) {
                try await client.send(
                    Endpoint<Data>(path: "/hang", query: [.init(name: "id", value: "trickle-\(transport)")])
                )
            }
            #expect(trickle?.transportFailure?.kind == .timedOut)
            #expect(trickle?.transportFailure?.detail == "after 0.7s")
            // The AsyncHTTPClient transport closes the connection at once. FoundationNetworking
            // may keep a cancelled transfer's connection open a while under load, reading
            // nothing (the request has ended all the same).
            if transport.isAsyncHTTPClient {
                try await server.events.waitForDisconnect("trickle-\(transport)", timeout: .seconds(60))
            }

            let hops = await #expect(throws: RequestError.self) {
                try await client.send(
                    Endpoint<Data>(path: "/slow-redirect/9", query: [.init(name: "ms", value: "300")])
                )
            }
            #expect(hops?.transportFailure?.kind == .timedOut, "not a fresh timeout a hop, nor too many redirects")
        }
    }

    /// Retries share the request's time: no attempt starts after it has run out. (The server
    /// holds its answer past the timeout; FoundationNetworking may end an attempt early, and
    /// then another may start, but never once the time is up.)
    @Test(arguments: Transport.allCases)
    func retriesShareTheTimeout(_ transport: Transport) async throws {
        let retry = Retry(maxAttempts: 5, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))
        let attempts = AttemptCounter()
        try await withClient(transport, timeout: .milliseconds(500), middleware: [retry, attempts]) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Data>(path: "/slow", query: [.init(name: "ms", value: "3000")]))
            }
            #expect(error?.transportFailure?.kind == .timedOut)
            let started = attempts.startedInTime
            #expect(!started.isEmpty && started.allSatisfy { $0 == true }, "\(started)")
            if transport.isAsyncHTTPClient { #expect(started.count == 1, "the first attempt ends at the deadline") }
        }
    }

    @Test(arguments: Transport.allCases)
    func oversizedBodyIsRefused(_ transport: Transport) async throws {
        try await withClient(transport, maxResponseSize: 10_000) { client, _ in
            for chunked in [false, true] {
                var query = [URLQueryItem(name: "bytes", value: "1000000")]
                if chunked { query.append(.init(name: "chunked", value: "1")) }
                let error = await #expect(throws: RequestError.self) {
                    try await client.send(Endpoint<Data>(path: "/large", query: query))
                }
                guard case .bodyTooLarge(_, let limit) = error else {
                    Issue.record("got \(String(describing: error))")
                    return
                }
                #expect(limit == 10_000)
            }
            // A body at the limit is fine.
            let exact = try await client.send(
                Endpoint<Data>(path: "/large", query: [.init(name: "bytes", value: "10000")])
            )
            #expect(exact.count == 10_000)
        }
    }

    @Test(arguments: Transport.allCases)
    func connectionDroppedMidBody(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Data>(path: "/drop"))
            }
            let failure = try #require(error?.transportFailure)
            #expect(failure.kind == .connectionLost, "\(failure.detail) \(String(describing: failure.cause))")
        }
    }

    @Test(arguments: Transport.allCases)
    func connectionRefused(_ transport: Transport) async throws {
        try await withClient(transport, baseURL: URL(string: "http://127.0.0.1:1")) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Data>(path: "/json"))
            }
            // Expected to differ: through a proxy, the proxy is what connects, and it answers
            // for the origin (as curl shows too).
            if transport == .proxied {
                #expect(error?.httpFailure?.status == 500, "\(String(describing: error))")
                return
            }
            let failure = try #require(error?.transportFailure)
            #expect(failure.kind == .connectionRefused)
            #expect(error?.message.hasPrefix("Could not connect to 127.0.0.1 for GET http://127.0.0.1:1/json") == true)
        }
    }

    @Test(arguments: Transport.allCases)
    func untrustedCertificateIsATLSFailure(_ transport: Transport) async throws {
        try await TestServer.withRunning(tls: true) { server in
            try await withClient(transport, baseURL: server.baseURL) { client, _ in
                let error = await #expect(throws: RequestError.self) {
                    try await client.send(Endpoint<Data>(path: "/json"))
                }
                let failure = try #require(error?.transportFailure)
                #expect(failure.kind == .tls, "\(failure.detail) \(String(describing: failure.cause))")
                #expect(
                    error?.message.hasPrefix(
                        "Secure connection to 127.0.0.1 failed for GET https://127.0.0.1:\(server.port)/json"
                    ) == true
                )
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func cancellationClosesTheConnection(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let id = "cancel-\(transport.rawValue)"
            let request = Task { () async throws(RequestError) -> Data in
                try await client.send(Endpoint<Data>(path: "/hang", query: [.init(name: "id", value: id)]))
            }
            try await server.events.waitForHit("hang:\(id)")
            request.cancel()
            let result = await request.result
            guard case .failure(let error) = result, case .cancelled? = error as? RequestError else {
                Issue.record("got \(result)")
                return
            }
            try await server.events.waitForDisconnect(id)
        }
    }

    @Test(arguments: Transport.allCases)
    func retriesTransientStatuses(_ transport: Transport) async throws {
        struct Attempts: Decodable { var attempts: Int }
        try await withClient(transport, middleware: [Retry(maxAttempts: 3, baseDelay: .milliseconds(5))]) { client, _ in
            let key = "retry-\(transport.rawValue)"
            let result = try await client.send(
                Endpoint<Attempts>(path: "/flaky/\(key)", query: [.init(name: "failures", value: "2")])
            )
            #expect(result.attempts == 3)
        }
    }

    // MARK: - Harness

    /// A public server's redirect to this machine or the local network is refused before any
    /// connection, the browsers' Private Network Access rule (issue 28); a host the caller named
    /// is reached. `public.example` is the loopback test server, reached through a transport
    /// that connects there for it.
    @Test(arguments: Transport.allCases)
    func aPublicServerCannotRedirectToThisMachine(_ transport: Transport) async throws {
        let policy = TransportSecurityPolicy.default.allowingInsecureHTTP(to: "public.example")
        try await withClient(transport, baseURL: URL(string: "http://public.example"), securityPolicy: policy) {
            client,
            server in
            let sent = ConnectingElsewhere.Paths()
            let mapped = HTTPClient(
                transport: ConnectingElsewhere(
                    base: client.transport,
                    authority: "127.0.0.1:\(server.port)",
                    sent: sent
                ),
                configuration: client.configuration
            )
            let port = server.port
            for location in [
                "http://127.0.0.1:\(port)/json", "http://localhost:\(port)/json", "http://[::1]:\(port)/json",
                "http://api.localhost:\(port)/json", "https://10.0.0.1/json", "https://192.168.1.1/json",
                "https://169.254.169.254/latest/meta-data", "https://2130706433/json", "https://0x7f.1/json",
                "https://[::ffff:127.0.0.1]/json", "https://[fd00::1]/json", "https://0.0.0.0/json",
            ] {
                let endpoint = Endpoint<Data>(path: "/redirect-to", query: [.init(name: "url", value: location)])
                let error = await #expect(throws: RequestError.self, "\(location)") { try await mapped.send(endpoint) }
                guard case .insecureConnection(_, .privateNetworkRedirect(let origin))? = error else {
                    Issue.record("\(location): \(String(describing: error))")
                    continue
                }
                #expect(origin == "public.example")
                #expect(error?.message.contains("a server farther away may not send requests to this machine") == true)
            }
            #expect(sent.paths.allSatisfy { $0.hasPrefix("/redirect-to") }, "nothing was sent to a redirect's target")
            // A host the caller named is reached.
            var trusting = client.configuration
            trusting.securityPolicy = policy.allowingInsecureHTTP(to: "127.0.0.1")
            let allowed = HTTPClient(transport: mapped.transport, configuration: trusting)
            let endpoint = Endpoint<Data>(
                path: "/redirect-to",
                query: [.init(name: "url", value: "http://127.0.0.1:\(port)/json")]
            )
            let body = try await allowed.send(endpoint)
            #expect(!body.isEmpty)
        }
    }

    func withClient(
        _ transport: Transport,
        baseURL: URL? = nil,
        // A margin for a loaded machine: no case waits for it, each ends at its event.
        timeout: Duration = .seconds(60),
        maxResponseSize: Int = 1 << 20,
        maxRedirects: Int = 10,
        securityPolicy: TransportSecurityPolicy = .default,
        middleware: [any Middleware] = [],
        _ body: @Sendable (HTTPClient, TestServer) async throws -> Void
    ) async throws {
        try await TestServer.withRunning { server in
            let configuration = HTTPClient.Configuration(
                baseURL: baseURL ?? server.baseURL,
                securityPolicy: securityPolicy,
                timeout: timeout,
                maxResponseSize: maxResponseSize,
                maxRedirects: maxRedirects,
                middleware: middleware
            )
            switch transport {
            case .asyncHTTPClient:
                // The connection and its TLS handshake get the same margin as the request.
                let settings = AsyncHTTPClientTransport.Configuration(connectTimeout: timeout)
                try await AsyncHTTPClientTransport.withTransport(configuration: settings) { transport in
                    try await body(HTTPClient(transport: transport, configuration: configuration), server)
                }
            case .urlSession:
                let transport = URLSessionTransport()
                defer { transport.invalidate() }
                try await body(HTTPClient(transport: transport, configuration: configuration), server)
            case .proxied:
                try await TinyProxy.withRunning { proxy in
                    var settings = AsyncHTTPClientTransport.Configuration(connectTimeout: timeout)
                    settings.proxy = ProxySettings(try ProxyServer(url: proxy.url))
                    try await AsyncHTTPClientTransport.withTransport(configuration: settings) { transport in
                        try await body(HTTPClient(transport: transport, configuration: configuration), server)
                    }
                }
            }
        }
    }
}

/// Connects to `authority` whatever host a request names: a name the tests cannot resolve
/// (`public.example`) reaches the loopback server, with the security checks above it unchanged.
private struct ConnectingElsewhere: HTTPTransport {
    /// The paths sent, in order.
    final class Paths: Sendable {
        private let recorded = Mutex<[String]>([])
        var paths: [String] { recorded.withLock { $0 } }
        func append(_ path: String) { recorded.withLock { $0.append(path) } }
    }

    let base: any HTTPTransport
    let authority: String
    let sent: Paths

    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        var request = request
        sent.append(request.head.path ?? "")
        request.head.authority = authority
        return try await base.send(request)
    }
}

/// Notes, for each attempt that passes it (put after `Retry`), whether it started before the
/// request's deadline (`nil`: it had none).
private final class AttemptCounter: Middleware {
    private let attempts = Mutex<[Bool?]>([])
    var startedInTime: [Bool?] { attempts.withLock { $0 } }

    func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        let start = ContinuousClock.now
        attempts.withLock { $0.append(request.deadline.map { start < $0 }) }
        return try await next(request)
    }
}
