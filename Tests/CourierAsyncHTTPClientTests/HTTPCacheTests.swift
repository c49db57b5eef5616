import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Logging
import Synchronization
import Testing

@testable import Courier

/// The HTTP cache against a real loopback server whose responses set the caching fields.
@Suite(.loadLimited)
struct HTTPCacheTests {
    /// The real time plus however far the test moved it. Hummingbird dates every response with
    /// the real time, so a response that arrives after a move looks older by the move (the
    /// client's clock is ahead of the server's): tests move the clock only to age stored responses.
    final class TestClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    /// A client with `cache` in its middleware, talking to `server`.
    struct Harness {
        let server: TestServer
        let client: HTTPClient
        let clock: TestClock
        let cache: HTTPCache

        func get(
            _ path: String,
            method: HTTPRequest.Method = .get,
            headers: HTTPFields = [:],
            policy: CachePolicy = .useProtocolPolicy
        ) async throws -> RawResponse {
            var request = try client.prepare(Endpoint<Data>(method: method, url: server.url(path), headers: headers))
            request.cachePolicy = policy
            return try await client.send(request)
        }

        func text(_ response: RawResponse) -> String { String(decoding: response.body, as: UTF8.self) }
        func hits(_ key: String) async -> Int { await server.events.hitCount(key) }
    }

    /// A harness whose client has `timeout` for each request (`nil`: none).
    static func withHarness(
        cache: HTTPCache? = nil,
        timeout: Duration? = .seconds(60),
        _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        let cache = try cache ?? HTTPCache()
        try await TestServer.withRunning { server in
            try await withHarness(cache: cache, server: server, timeout: timeout, body)
        }
    }

    static func withHarness(
        cache: HTTPCache,
        server: TestServer,
        timeout: Duration? = .seconds(60),
        _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        let clock = TestClock()
        try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
            var configuration = HTTPClient.Configuration(timeout: timeout, cache: cache)
            configuration.cacheClock = { clock.now }
            let client = HTTPClient(transport: transport, configuration: configuration)
            do {
                try await body(Harness(server: server, client: client, clock: clock, cache: cache))
            } catch {
                await cache.shutdown()
                throw error
            }
            await cache.shutdown()
        }
    }

    // MARK: - Freshness

    @Test func aFreshResponseIsServedWithoutAskingTheOrigin() async throws {
        try await Self.withHarness { harness in
            let asked = harness.clock.now
            let first = try await harness.get("/cacheable/fresh?cc=max-age%3D60")
            #expect(first.cacheOutcome == .miss)
            harness.clock.advance(by: 30)
            let second = try await harness.get("/cacheable/fresh?cc=max-age%3D60")
            #expect(second.cacheOutcome == .hit)
            #expect(harness.text(second) == "fresh #1")
            // The 30 s moved, plus the real time since the request went out or since the
            // origin's Date, whichever is earlier (RFC 9111 §4.2.3; a loaded server's Date
            // lags): never less than the move, never more than that.
            let age = try #require(second.head.headerFields[.age].flatMap { Int($0) })
            let dated = try #require(first.head.headerFields[.date].flatMap(HTTPDate.parse))
            let most = Int(harness.clock.now.timeIntervalSince(min(dated, asked)).rounded(.up)) + 1
            #expect((30...most).contains(age), "age \(age), at most \(most)")
            #expect(await harness.hits("fresh") == 1)
        }
    }

    @Test func expiresIsHonoured() async throws {
        try await Self.withHarness { harness in
            _ = try await harness.get("/cacheable/expires?expires=60")
            harness.clock.advance(by: 50)
            #expect(try await harness.get("/cacheable/expires?expires=60").cacheOutcome == .hit)
            harness.clock.advance(by: 20)
            #expect(try await harness.get("/cacheable/expires?expires=60").cacheOutcome == .miss)
        }
    }

    /// Last-Modified 1000 s before Date: fresh for a tenth of that.
    @Test func heuristicFreshnessIsATenthOfTheAgeOfTheContent() async throws {
        try await Self.withHarness { harness in
            _ = try await harness.get("/cacheable/heuristic?lm=1000")
            harness.clock.advance(by: 50)
            #expect(try await harness.get("/cacheable/heuristic?lm=1000").cacheOutcome == .hit)
            harness.clock.advance(by: 100)
            #expect(try await harness.get("/cacheable/heuristic?lm=1000").cacheOutcome == .revalidated)
        }
    }

    @Test func theQueryIsPartOfTheKey() async throws {
        try await Self.withHarness { harness in
            _ = try await harness.get("/cacheable/query?cc=max-age%3D60&page=1")
            let other = try await harness.get("/cacheable/query?cc=max-age%3D60&page=2")
            #expect(other.cacheOutcome == .miss)
            #expect(harness.text(other) == "query #2")
        }
    }

    // MARK: - Validation

    @Test func aStaleResponseIsRevalidatedWithItsEntityTag() async throws {
        try await Self.withHarness { harness in
            // Age 1200 with max-age 600: stale on arrival. The 304 carries no Age: fresh again,
            // for ten minutes less the time its exchange took (RFC 9111 counts that delay, which
            // a loaded machine once stretched past a shorter lifetime).
            let path = "/cacheable/etag?cc=max-age%3D600&etag=%22v1%22&age=1200"
            _ = try await harness.get(path)
            let second = try await harness.get(path)
            #expect(second.cacheOutcome == .revalidated)
            #expect(second.status == 200)
            #expect(harness.text(second) == "etag #1")
            #expect(await harness.hits("etag:304") == 1)
            #expect(try await harness.get(path).cacheOutcome == .hit)
        }
    }

    @Test func aCompressedResponseIsStoredDecodedWithItsValidators() async throws {
        try await Self.withHarness { harness in
            // The 304 repeats Content-Encoding, as some servers and CDNs send it.
            let path = "/cacheable/gz?cc=max-age%3D600&etag=%22v1%22&age=1200&gzip=1&extra=Content-Encoding%3A%20gzip"
            let first = try await harness.get(path)
            #expect(harness.text(first) == "gz #1")
            #expect(first.head.headerFields[.contentEncoding] == nil)
            // Stale on arrival: revalidated with the entity tag the server gave, and answered
            // from the stored, decoded body.
            let second = try await harness.get(path)
            #expect(second.cacheOutcome == .revalidated)
            #expect(harness.text(second) == "gz #1")
            #expect(second.head.headerFields[.eTag] == "\"v1\"")
            #expect(second.head.headerFields[.vary] == "Accept-Encoding")
            #expect(second.head.headerFields[.contentEncoding] == nil, "the stored body is decoded")
            #expect(await harness.hits("gz:304") == 1)
            let third = try await harness.get(path)
            #expect(third.cacheOutcome == .hit)
            #expect(harness.text(third) == "gz #1")
            #expect(third.head.headerFields[.contentEncoding] == nil)
        }
    }

    @Test func lastModifiedValidatesWhenThereIsNoTag() async throws {
        try await Self.withHarness { harness in
            let path = "/cacheable/lm?cc=max-age%3D0&lm=3600"
            _ = try await harness.get(path)
            harness.clock.advance(by: 1)
            #expect(try await harness.get(path).cacheOutcome == .revalidated)
            #expect(await harness.hits("lm:304") == 1)
        }
    }

    @Test func noCacheMeansValidateEveryTime() async throws {
        try await Self.withHarness { harness in
            let path = "/cacheable/nocache?cc=no-cache&etag=%22a%22"
            _ = try await harness.get(path)
            #expect(try await harness.get(path).cacheOutcome == .revalidated)
            #expect(await harness.hits("nocache:304") == 1)
            // A request's own no-cache does the same for a fresh response.
            let fresh = "/cacheable/reqnocache?cc=max-age%3D60&etag=%22a%22"
            _ = try await harness.get(fresh)
            #expect(try await harness.get(fresh, headers: [.cacheControl: "no-cache"]).cacheOutcome == .revalidated)
            #expect(try await harness.get(fresh, headers: [.cacheControl: "max-age=0"]).cacheOutcome == .revalidated)
        }
    }

    /// Every path that revalidates answers with the stored 200 freshened by the 304 (RFC 9111
    /// §4.3.4), also when the 304 carries no validator of its own — only a caller whose own
    /// request was conditional gets the 304.
    @Test(arguments: [
        ("reqnocache", "cc=max-age%3D60", HTTPFields([HTTPField(name: .cacheControl, value: "no-cache")])),
        ("reqmaxage0", "cc=max-age%3D60", HTTPFields([HTTPField(name: .cacheControl, value: "max-age=0")])),
        ("pragma", "cc=max-age%3D60", HTTPFields([HTTPField(name: .pragma, value: "no-cache")])),
        ("resnocache", "cc=no-cache", HTTPFields()),
        ("mustrevalidate", "cc=max-age%3D10%2C%20must-revalidate&age=20", HTTPFields()),
        ("stale", "cc=max-age%3D10&age=20", HTTPFields()),
    ])
    func everyRevalidationAnswersWithTheStoredResponse(key: String, query: String, headers: HTTPFields) async throws {
        for validator in ["etag=%22v1%22", "lm=3600"] {
            for bare in [false, true] {
                try await Self.withHarness { harness in
                    let path = "/cacheable/\(key)?\(query)&\(validator)\(bare ? "&bare304=1" : "")"
                    _ = try await harness.get(path)
                    let second = try await harness.get(path, headers: headers)
                    #expect(second.status == 200, "\(path)")
                    #expect(second.cacheOutcome == .revalidated, "\(path)")
                    #expect(harness.text(second) == "\(key) #1", "\(path)")
                    #expect(await harness.hits("\(key):304") == 1, "\(path)")

                    var own = headers
                    if validator.hasPrefix("etag") {
                        own[.ifNoneMatch] = "\"v1\""
                    } else {
                        own[.ifModifiedSince] = "Fri, 01 Jan 2100 00:00:00 GMT"
                    }
                    let conditional = try await harness.get(path, headers: own)
                    #expect(conditional.status == 304, "the caller asked for a 304 itself: \(path)")
                }
            }
        }
    }

    @Test func aRequestWithNoStoreNeitherReadsNorWritesTheCache() async throws {
        try await Self.withHarness { harness in
            let path = "/cacheable/reqnostore?cc=max-age%3D60"
            _ = try await harness.get(path)
            let bypass = try await harness.get(path, headers: [.cacheControl: "no-store"])
            #expect(bypass.cacheOutcome == .miss)
            #expect(harness.text(bypass) == "reqnostore #2")
            // What the no-store request received was not stored: the first response still answers.
            #expect(harness.text(try await harness.get(path)) == "reqnostore #1")
            _ = try await harness.get("/cacheable/never-stored?cc=max-age%3D60", headers: [.cacheControl: "no-store"])
            #expect(try await harness.get("/cacheable/never-stored?cc=max-age%3D60").cacheOutcome == .miss)
        }
    }

    @Test func pragmaCountsOnlyWithoutCacheControl() async throws {
        try await Self.withHarness { harness in
            let path = "/cacheable/pragma-cc?cc=max-age%3D60&etag=%22p%22"
            _ = try await harness.get(path)
            let both: HTTPFields = [.pragma: "no-cache", .cacheControl: "max-stale=10"]
            #expect(try await harness.get(path, headers: both).cacheOutcome == .hit)
        }
    }

    @Test func anInvalidExpiresMeansAlreadyExpired() async throws {
        try await Self.withHarness { harness in
            for (index, raw) in ["0", "-1", "yesterday", "Thu, 01 Jan 1970 00:00:00 GMT"].enumerated() {
                let encoded = raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let path = "/cacheable/expires-\(index)?expires_raw=\(encoded)&etag=%22e%22"
                _ = try await harness.get(path)
                #expect(try await harness.get(path).cacheOutcome == .revalidated, "Expires: \(raw)")
            }
        }
    }

    @Test func maxStaleAcceptsStaleResponsesUnlessTheyMustRevalidate() async throws {
        try await Self.withHarness { harness in
            _ = try await harness.get("/cacheable/stale?cc=max-age%3D10")
            _ = try await harness.get("/cacheable/strict?cc=max-age%3D10%2C%20must-revalidate")
            harness.clock.advance(by: 30)
            let stale = try await harness.get(
                "/cacheable/stale?cc=max-age%3D10",
                headers: [.cacheControl: "max-stale=60"]
            )
            #expect(stale.cacheOutcome == .stale)
            let strict = try await harness.get(
                "/cacheable/strict?cc=max-age%3D10%2C%20must-revalidate",
                headers: [.cacheControl: "max-stale=60"]
            )
            #expect(strict.cacheOutcome == .miss)
            #expect(await harness.hits("strict") == 2)
        }
    }

    // MARK: - Stale on errors

    @Test func aStaleResponseIsServedWhenTheOriginIsUnreachable() async throws {
        let cache = try HTTPCache()
        let clock = TestClock()
        try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
            var configuration = HTTPClient.Configuration(cache: cache)
            configuration.cacheClock = { clock.now }
            let client = HTTPClient(transport: transport, configuration: configuration)
            let paths = [
                "/cacheable/gone?cc=max-age%3D10", "/cacheable/strictgone?cc=max-age%3D10%2C%20must-revalidate",
            ]
            let urls = try await TestServer.withRunning { server in
                var urls: [URL] = []
                for path in paths {
                    urls.append(server.url(path))
                    // No connection may stay open: the server stops while this client lives on.
                    let endpoint = Endpoint<Data>(url: server.url(path), headers: [.connection: "close"])
                    _ = try await client.send(client.prepare(endpoint))
                }
                return urls
            }
            clock.advance(by: 60)
            // The server has stopped: its port refuses connections.
            let stale = try await client.send(client.prepare(Endpoint<Data>(url: urls[0])))
            #expect(stale.cacheOutcome == .stale)
            #expect(String(decoding: stale.body, as: UTF8.self) == "gone #1")
            let error = await #expect(throws: RequestError.self) {
                try await client.send(client.prepare(Endpoint<Data>(url: urls[1])))
            }
            #expect(error?.transportFailure?.kind == .connectionRefused)
        }
    }

    @Test func staleIfErrorCoversServerErrors() async throws {
        try await Self.withHarness { harness in
            let allowed = "/cacheable/sie?cc=max-age%3D10%2C%20stale-if-error%3D600&fail_after=1"
            let plain = "/cacheable/nosie?cc=max-age%3D10&fail_after=1"
            _ = try await harness.get(allowed)
            _ = try await harness.get(plain)
            harness.clock.advance(by: 60)
            let served = try await harness.get(allowed)
            #expect(served.cacheOutcome == .stale)
            #expect(harness.text(served) == "sie #1")
            let failed = try await harness.get(plain)
            #expect(failed.status == 503)
            #expect(await harness.hits("sie") == 2)
        }
    }

    // MARK: - What is stored

    @Test func noStoreAndAuthorizationKeepResponsesOut() async throws {
        try await Self.withHarness { harness in
            _ = try await harness.get("/cacheable/nostore?cc=no-store%2C%20max-age%3D60")
            #expect(try await harness.get("/cacheable/nostore?cc=no-store%2C%20max-age%3D60").cacheOutcome == .miss)

            let secret: HTTPFields = [.authorization: "Bearer t"]
            _ = try await harness.get("/cacheable/auth?cc=max-age%3D60", headers: secret)
            #expect(try await harness.get("/cacheable/auth?cc=max-age%3D60", headers: secret).cacheOutcome == .miss)
            _ = try await harness.get("/cacheable/public?cc=public%2C%20max-age%3D60", headers: secret)
            #expect(
                try await harness.get("/cacheable/public?cc=public%2C%20max-age%3D60", headers: secret).cacheOutcome
                    == .hit
            )
        }
    }

    @Test func varyKeepsOneVariantPerRequestValue() async throws {
        try await Self.withHarness { harness in
            let path = "/cacheable/vary?cc=max-age%3D60&vary=Accept-Language"
            let english = try await harness.get(path, headers: [.acceptLanguage: "en"])
            #expect(harness.text(english) == "vary #1 Accept-Language=en")
            let french = try await harness.get(path, headers: [.acceptLanguage: "fr"])
            #expect(french.cacheOutcome == .miss)
            #expect(harness.text(french) == "vary #2 Accept-Language=fr")
            #expect(
                harness.text(try await harness.get(path, headers: [.acceptLanguage: "en"]))
                    == "vary #1 Accept-Language=en"
            )
            #expect(
                harness.text(try await harness.get(path, headers: [.acceptLanguage: "fr"]))
                    == "vary #2 Accept-Language=fr"
            )
            #expect(try await harness.get(path).cacheOutcome == .miss)
        }
    }

    @Test func unsafeMethodsInvalidateTheURLAndItsLocations() async throws {
        try await Self.withHarness { harness in
            let path = "/cacheable/target?cc=max-age%3D60"
            _ = try await harness.get(path)
            _ = try await harness.get(path, method: .post)
            #expect(try await harness.get(path).cacheOutcome == .miss)
            // An extension method is unsafe too.
            let search = try await harness.get(path, method: try #require(HTTPRequest.Method("M-SEARCH")))
            #expect(search.status == 200)
            #expect(try await harness.get(path).cacheOutcome == .miss)

            let location = harness.server.url(path).absoluteString
            let encoded = location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            _ = try await harness.get("/cacheable/other?location=\(encoded)", method: .put)
            #expect(try await harness.get(path).cacheOutcome == .miss)
            #expect(await harness.hits("target") == 6)  // GET, POST, GET, M-SEARCH, GET, GET
        }
    }

    @Test func headIsAnsweredFromAStoredGet() async throws {
        try await Self.withHarness { harness in
            _ = try await harness.get("/cacheable/head?cc=max-age%3D60")
            let head = try await harness.get("/cacheable/head?cc=max-age%3D60", method: .head)
            #expect(head.cacheOutcome == .hit)
            #expect(head.body.isEmpty)
            #expect(await harness.hits("head") == 1)
        }
    }

    // MARK: - Policies

    @Test func policiesReloadPreferTheCacheOrStayOffline() async throws {
        try await Self.withHarness { harness in
            let path = "/cacheable/policy?cc=max-age%3D10"
            _ = try await harness.get(path)
            #expect(try await harness.get(path, policy: .reloadIgnoringCache).cacheOutcome == .miss)
            harness.clock.advance(by: 60)
            let stale = try await harness.get(path, policy: .returnCacheElseLoad)
            #expect(stale.cacheOutcome == .stale)
            #expect(harness.text(stale) == "policy #2")
            #expect(try await harness.get(path, policy: .returnCacheDontLoad).cacheOutcome == .stale)
            let offline = try await harness.get("/cacheable/never?cc=max-age%3D10", policy: .returnCacheDontLoad)
            #expect(offline.status == 504)
            #expect(await harness.hits("never") == 0)
            #expect(await harness.hits("policy") == 2)
        }
    }

    // MARK: - Disk

    @Test func theDiskTierSurvivesARestartAndDropsDamagedEntries() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        @Sendable func entries() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".entry") })
        }
        try await TestServer.withRunning { server in
            // Entries are filed under keyed hashes: the damaged one is the file the second
            // response added (modification times can tie).
            let written = Mutex<[Set<String>]>([])
            try await Self.withHarness(cache: try HTTPCache(directory: directory), server: server) { harness in
                _ = try await harness.get("/cacheable/disk?cc=max-age%3D600")
                let first = try entries()
                _ = try await harness.get("/cacheable/damaged?cc=max-age%3D600")
                let both = try entries()
                written.withLock { $0 = [first, both] }
            }
            let (first, files) = written.withLock { ($0.first ?? [], $0.last ?? []) }
            // A new cache on the same directory: what a restarted process sees.
            #expect(first.count == 1)
            #expect(files.count == 2)
            let damaged = try #require(files.subtracting(first).first)
            let damagedURL = directory.appendingPathComponent(damaged)
            var bytes = try Data(contentsOf: damagedURL)
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: damagedURL)

            try await Self.withHarness(cache: try HTTPCache(directory: directory), server: server) { harness in
                let disk = try await harness.get("/cacheable/disk?cc=max-age%3D600")
                #expect(disk.cacheOutcome == .hit)
                #expect(harness.text(disk) == "disk #1")
                let broken = try await harness.get("/cacheable/damaged?cc=max-age%3D600")
                #expect(broken.cacheOutcome == .miss)
                #expect(harness.text(broken) == "damaged #2")
            }
            #expect(FileManager.default.fileExists(atPath: damagedURL.path), "replaced by the new response")
        }
    }

    @Test func theDiskTierStaysWithinItsCapacity() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try HTTPCache(memoryCapacity: 0, directory: directory, diskCapacity: 20_000)
        let now = Date()
        for index in 0..<10 {
            let entry = CachedResponse(
                head: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"]),
                body: Data(repeating: UInt8(index), count: 4_000),
                url: "https://api.test/\(index)",
                requestTime: now,
                responseTime: now,
                selectingValues: [:]
            )
            await cache.store([entry], forKey: "https://api.test/\(index)")
        }
        let sizes = try FileManager.default.contentsOfDirectory(
            at: directory,
            includingPropertiesForKeys: [.fileSizeKey]
        )
        .map { try $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0 }
        #expect(sizes.reduce(0, +) <= 20_000)
        #expect(await cache.variants(forKey: "https://api.test/9").first?.body.first == 9)
    }

    /// The directory and its files are the owner's only, and no file holds a credential: not
    /// one `Vary` selected, not a secret query item, not a cookie the response set. Entries
    /// are still found, after a restart too.
    @Test func theDiskTierKeepsNoSecrets() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path =
            "/cacheable/secret?cc=public%2C%20max-age%3D600&vary=Authorization&echo_vary=no&set_cookie=sid%3Dcookie-secret&api_key=query-secret"
        let credentials: HTTPFields = [.authorization: "Bearer header-secret"]
        try await TestServer.withRunning { server in
            try await Self.withHarness(cache: try HTTPCache(directory: directory), server: server) { harness in
                _ = try await harness.get(path, headers: credentials)
                #expect(try await harness.get(path, headers: credentials).cacheOutcome == .hit)
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count == 2, "\(files)")  // the entry and the cache's key
            for name in files {
                let file = directory.appendingPathComponent(name).path
                let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
                let leaked = ["header-secret", "query-secret", "cookie-secret", "/cacheable/secret"].filter {
                    text.contains($0)
                }
                #expect(leaked.isEmpty, "\(name) holds \(leaked)")
                #expect(try Self.permissions(file) == 0o600, "\(name)")
            }
            #expect(try Self.permissions(directory.path) == 0o700)

            try await Self.withHarness(cache: try HTTPCache(directory: directory), server: server) { harness in
                let again = try await harness.get(path, headers: credentials)
                #expect(again.cacheOutcome == .hit)
                #expect(again.url.hasSuffix("api_key=query-secret"), "the caller gets its own URL back")
                let other = try await harness.get(path, headers: [.authorization: "Bearer someone-else"])
                #expect(other.cacheOutcome == .miss)
            }
        }
    }

    /// URLs other header fields carry are stored with their credentials `REDACTED`; a
    /// `Location` that carries one keeps its response off the disk (issue 28).
    @Test func credentialsInStoredURLsAreRedacted() throws {
        func stored(_ fields: HTTPFields) -> CachedResponse {
            CachedResponse(
                head: HTTPResponse(status: .ok, headerFields: fields),
                body: Data("body".utf8),
                url: "https://api.test/x",
                requestTime: Date(),
                responseTime: Date(),
                selectingValues: [:]
            )
        }
        let link = try #require(HTTPField.Name("Link"))
        let entry = try #require(
            DiskCacheStore.encode(
                [
                    stored([
                        .contentLocation: "https://api.test/x?access_token=T1&page=2",
                        link: "<https://api.test/x?page=3&api_key=T2>; rel=\"next\"",
                        .cacheControl: "max-age=600",
                    ])
                ],
                key: "k"
            )
        )
        let text = String(decoding: entry, as: UTF8.self)
        #expect(!text.contains("T1") && !text.contains("T2"))
        let decoded = try #require(DiskCacheStore.decode(entry, key: "k")?.first)
        #expect(decoded.head.headerFields[.contentLocation] == "https://api.test/x?access_token=REDACTED&page=2")
        #expect(decoded.head.headerFields[link] == "<https://api.test/x?page=3&api_key=REDACTED>; rel=\"next\"")
        #expect(decoded.head.headerFields[.cacheControl] == "max-age=600")

        let redirect = stored([.location: "https://api.test/next?access_token=T3", .cacheControl: "max-age=600"])
        #expect(DiskCacheStore.encode([redirect], key: "k") == nil)
        #expect(DiskCacheStore.encode([stored([.location: "https://api.test/next?page=2"])], key: "k") != nil)
    }

    /// A directory of ours that others may read (0755, as `mkdir` makes it) is made 0700; one
    /// others may write to is refused.
    @Test func anExistingDirectoryIsMadePrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o755]
        )
        #expect(try Self.permissions(directory.path) == 0o755)
        _ = try HTTPCache(directory: directory)
        #expect(try Self.permissions(directory.path) == 0o700)

        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        let error = #expect(throws: CacheStorageError.self) { try HTTPCache(directory: directory) }
        #expect(error?.description.contains("other users may write to it") == true)

        // A directory that holds more than a cache (`--cache .`) is never chmod'ed: refused.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try Data("notes".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let shared = #expect(throws: CacheStorageError.self) { try HTTPCache(directory: directory) }
        #expect(shared?.description.contains("it holds more than a cache") == true)
        #expect(try Self.permissions(directory.path) == 0o755)
    }

    /// An entry whose lengths do not fit its file is a miss and is deleted, whatever the
    /// numbers (no arithmetic trap); the failure reaches the cache's logger; files an
    /// interrupted write left are gone after the next open.
    @Test func aForgedEntryIsAMissAndIsReported() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = "https://api.test/forged"
        let stored = CachedResponse(
            head: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=600"]),
            body: Data("body".utf8),
            url: key,
            requestTime: Date(),
            responseTime: Date(),
            selectingValues: [:]
        )
        let valid = try #require(DiskCacheStore.encode([stored], key: key))
        #expect(String(decoding: valid, as: UTF8.self).contains("\"bodyLengths\":[4]"))
        for forged in ["9223372036854775807", "-1", "4611686018427387904", "5"] {
            let entry = Self.entry(replacing: "\"bodyLengths\":[4]", with: "\"bodyLengths\":[\(forged)]", in: valid)
            #expect(DiskCacheStore.decode(entry, key: key) == nil, "\(forged)")
        }
        #expect(DiskCacheStore.decode(valid, key: key)?.first?.body == Data("body".utf8))
        // Dates no cache could have written are refused too: ages computed from them would trap.
        for date in ["-1e300", "1e300", "-978307201"] {
            let forged = Self.entry(in: valid) {
                $0.replacing(/"requestTime":[-0-9.eE+]+/, with: #""requestTime":\#(date)"#)
            }
            #expect(DiskCacheStore.decode(forged, key: key) == nil, "requestTime \(date)")
        }

        let logs = LogRecorder()
        let cache = try HTTPCache(
            directory: directory,
            logger: Logger(label: "test") { _ in RecordingLogHandler(recorder: logs) }
        )
        await cache.store([stored], forKey: key)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".entry")
        }
        let file = directory.appendingPathComponent(try #require(files.first))
        try Self.entry(replacing: "\"bodyLengths\":[4]", with: "\"bodyLengths\":[9223372036854775807]", in: valid)
            .write(to: file)
        let interrupted = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        let notOurs = directory.appendingPathComponent(".someone-elses.tmp")
        for old in [interrupted, notOurs] {
            try Data().write(to: old)
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-120)],
                ofItemAtPath: old.path
            )
        }
        let inFlight = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        try Data().write(to: inFlight)
        let reopened = try HTTPCache(
            memoryCapacity: 0,
            directory: directory,
            logger: Logger(label: "test") { _ in RecordingLogHandler(recorder: logs) }
        )
        #expect(await reopened.variants(forKey: key).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the forged entry was deleted")
        #expect(!FileManager.default.fileExists(atPath: interrupted.path))
        #expect(FileManager.default.fileExists(atPath: inFlight.path), "a write in progress elsewhere is left alone")
        #expect(FileManager.default.fileExists(atPath: notOurs.path), "only the cache's own files are removed")
        #expect(logs.messages.contains("Deleted a damaged HTTP cache entry"))
    }

    /// `valid` with `old` replaced by `new` in its JSON, lengths and checksum made right again.
    static func entry(replacing old: String, with new: String, in valid: Data) -> Data {
        entry(in: valid) { $0.replacingOccurrences(of: old, with: new) }
    }

    /// `valid` with its JSON changed by `change`, lengths and checksum made right again.
    static func entry(in valid: Data, changing change: (String) -> String) -> Data {
        var bytes = [UInt8](valid.dropLast(8))
        let keyLength = bytes[5..<9].reduce(0) { $0 << 8 | Int($1) }
        let jsonStart = 9 + keyLength + 4
        let jsonLength = bytes[(9 + keyLength)..<jsonStart].reduce(0) { $0 << 8 | Int($1) }
        let json = change(String(decoding: bytes[jsonStart..<(jsonStart + jsonLength)], as: UTF8.self))
        let length = UInt32(json.utf8.count)
        bytes.replaceSubrange(
            (9 + keyLength)..<(jsonStart + jsonLength),
            with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + Array(json.utf8)
        )
        let checksum = FNV1a.hash(bytes)
        bytes += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: checksum >> $0) }
        return Data(bytes)
    }

    static func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }

    /// The messages a ``RecordingLogHandler`` received.
    final class LogRecorder: Sendable {
        private let recorded = Mutex<[String]>([])
        var messages: [String] { recorded.withLock { $0 } }
        func append(_ message: String) { recorded.withLock { $0.append(message) } }
    }

    struct RecordingLogHandler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { recorder.append("\(event.message)") }
    }
}
