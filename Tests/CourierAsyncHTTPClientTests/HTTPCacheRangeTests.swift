import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Partial content through the cache (RFC 9111 §3.3–3.4, RFC 9110 §14) against the loopback
/// server's `/cacheable/{key}?bytes=N` route, whose hit counters and recorded `Range` fields
/// show what reached the origin.
@Suite(.loadLimited)
struct HTTPCacheRangeTests {
    /// The bytes `/cacheable/{key}?bytes=count&shift=shift` serves.
    static func pattern(_ range: Range<Int>, shift: Int = 0) -> Data {
        Data(range.map { UInt8(($0 + shift) % 251) })
    }

    static let file = "cc=max-age%3D600&etag=%22v1%22&bytes=1000"

    @Test func aStoredResponseAnswersEachFormOfRange() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/whole?\(Self.file)"
            _ = try await harness.get(path)
            let cases: [(range: String, status: Int, contentRange: String?, bytes: Range<Int>)] = [
                ("bytes=0-99", 206, "bytes 0-99/1000", 0..<100),
                ("bytes=990-", 206, "bytes 990-999/1000", 990..<1000),
                ("bytes=-10", 206, "bytes 990-999/1000", 990..<1000),
                ("bytes=-5000", 206, "bytes 0-999/1000", 0..<1000),
                ("bytes=500-99999999999999999999", 206, "bytes 500-999/1000", 500..<1000),
                ("BYTES= 7-7 ,", 206, "bytes 7-7/1000", 7..<8),
                ("bytes=1000-", 416, "bytes */1000", 0..<0),
                ("bytes=-0", 416, "bytes */1000", 0..<0),
                // Several ranges, an invalid range and another unit: the whole response.
                ("bytes=0-1,5-6", 200, nil, 0..<1000),
                ("bytes=5-1", 200, nil, 0..<1000),
                ("items=0-5", 200, nil, 0..<1000),
                ("bytes=a-5", 200, nil, 0..<1000),
            ]
            for test in cases {
                let response = try await harness.get(path, headers: [.range: test.range])
                #expect(response.status == test.status, "\(test.range)")
                #expect(response.cacheOutcome == .hit, "\(test.range)")
                #expect(response.head.headerFields[.contentRange] == test.contentRange, "\(test.range)")
                #expect(response.body == Self.pattern(test.bytes), "\(test.range)")
                #expect(response.head.headerFields[.contentLength] == String(test.bytes.count), "\(test.range)")
            }
            // A HEAD ignores Range.
            let head = try await harness.get(path, method: .head, headers: [.range: "bytes=0-9"])
            #expect(head.status == 200)
            #expect(await harness.hits("whole") == 1)
        }
    }

    @Test func ifRangeGetsThePartOnlyForTheStoredRepresentation() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let tagged = "/cacheable/ifrange?\(Self.file)"
            _ = try await harness.get(tagged)
            let matching = try await harness.get(tagged, headers: [.range: "bytes=0-9", .ifRange: "\"v1\""])
            #expect(matching.status == 206)
            for other in ["\"v0\"", "W/\"v1\"", "Sat, 01 Jan 2000 00:00:00 GMT"] {
                let whole = try await harness.get(tagged, headers: [.range: "bytes=0-9", .ifRange: other])
                #expect(whole.status == 200, "\(other)")
                #expect(whole.body.count == 1000, "\(other)")
                #expect(whole.cacheOutcome == .hit)
            }
            #expect(await harness.hits("ifrange") == 1)

            // A date holds only where Last-Modified is strong: Date a minute or more after it.
            let dated = "/cacheable/ifrangedate?cc=max-age%3D600&lm=3600&bytes=1000"
            let stored = try await harness.get(dated)
            let lastModified = try #require(stored.head.headerFields[.lastModified])
            let part = try await harness.get(dated, headers: [.range: "bytes=0-9", .ifRange: lastModified])
            #expect(part.status == 206)
            #expect(part.body == Self.pattern(0..<10))
        }
    }

    @Test func partsAreStoredReusedAndCompleted() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/parts?\(Self.file)"
            let first = try await harness.get(path, headers: [.range: "bytes=0-99"])
            #expect(first.status == 206)
            #expect(first.cacheOutcome == .miss)

            // A range within the stored part: from the cache.
            let within = try await harness.get(path, headers: [.range: "bytes=10-19"])
            #expect(within.status == 206)
            #expect(within.cacheOutcome == .hit)
            #expect(within.head.headerFields[.contentRange] == "bytes 10-19/1000")
            #expect(within.body == Self.pattern(10..<20))
            #expect(await harness.hits("parts") == 1)

            // A request without Range never gets the part: the cache asks for the rest only,
            // with If-Range, and answers with the whole response.
            let whole = try await harness.get(path)
            #expect(whole.status == 200)
            #expect(whole.cacheOutcome == .revalidated)
            #expect(whole.body == Self.pattern(0..<1000))
            #expect(whole.head.headerFields[.contentRange] == nil)
            #expect(whole.head.headerFields[.contentLength] == "1000")
            #expect(await harness.server.events.queries(for: "range:parts") == ["bytes=0-99", "bytes=100-999"])

            // Complete now: a hit, whole or in part.
            #expect(try await harness.get(path).cacheOutcome == .hit)
            let end = try await harness.get(path, headers: [.range: "bytes=-1"])
            #expect(end.cacheOutcome == .hit)
            #expect(end.body == Self.pattern(999..<1000))
            #expect(await harness.hits("parts") == 2)
        }
    }

    @Test func twoPartsCombineIntoTheWholeResponse() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/halves?\(Self.file)"
            _ = try await harness.get(path, headers: [.range: "bytes=500-"])
            _ = try await harness.get(path, headers: [.range: "bytes=0-599"])
            let whole = try await harness.get(path)
            #expect(whole.cacheOutcome == .hit)
            #expect(whole.status == 200)
            #expect(whole.body == Self.pattern(0..<1000))
            #expect(await harness.hits("halves") == 2)
        }
    }

    @Test func partsOfAnotherRepresentationAreNotJoined() async throws {
        try await HTTPCacheTests.withHarness { harness in
            // From the second request on, the resource has changed.
            let path = "/cacheable/changed?\(Self.file)&change_after=1"
            _ = try await harness.get(path, headers: [.range: "bytes=0-99"])
            // The cache asks for the rest with If-Range "v1", which no longer holds: the origin
            // sends the new representation whole, and that is the answer.
            let whole = try await harness.get(path)
            #expect(whole.status == 200)
            #expect(whole.cacheOutcome == .miss)
            #expect(whole.head.headerFields[.eTag] == "\"changed\"")
            #expect(whole.body == Self.pattern(0..<1000, shift: 1))
            let again = try await harness.get(path, headers: [.range: "bytes=0-9"])
            #expect(again.cacheOutcome == .hit)
            #expect(again.body == Self.pattern(0..<10, shift: 1))
            #expect(await harness.hits("changed") == 2)
        }
    }

    @Test func aPartWithoutAStrongValidatorIsNotStored() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/weak?cc=max-age%3D600&etag=W%2F%22v1%22&bytes=1000"
            _ = try await harness.get(path, headers: [.range: "bytes=0-99"])
            let again = try await harness.get(path, headers: [.range: "bytes=0-99"])
            #expect(again.cacheOutcome == .miss)
            #expect(await harness.hits("weak") == 2)
        }
    }

    @Test func a416IsNotStored() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/past?\(Self.file)"
            let past = try await harness.get(path, headers: [.range: "bytes=5000-"])
            #expect(past.status == 416)
            let whole = try await harness.get(path)
            #expect(whole.status == 200)
            #expect(whole.cacheOutcome == .miss)
            #expect(await harness.hits("past") == 2)
        }
    }

    /// A revalidated part keeps its strong tag when the 304 sends it weak, and is still given
    /// as the part asked for.
    @Test func aPartRevalidatedByAWeak304IsStillAPart() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/weak304?cc=max-age%3D0&etag=%22v1%22&bytes=1000&weak304=1"
            _ = try await harness.get(path, headers: [.range: "bytes=0-99"])
            let part = try await harness.get(path, headers: [.range: "bytes=0-9", .ifRange: "\"v1\""])
            #expect(part.cacheOutcome == .revalidated)
            #expect(part.status == 206)
            #expect(part.head.headerFields[.contentRange] == "bytes 0-9/1000")
            #expect(part.head.headerFields[.eTag] == "\"v1\"")
            #expect(part.body == Self.pattern(0..<10))
            #expect(await harness.hits("weak304:304") == 1)
        }
    }

    /// `no-cache="Content-Range, Content-Length"` withholds the origin's fields, not the ones
    /// the cache writes for its own answer.
    @Test func withheldFieldsNeverIncludeTheAnswersFraming() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let control = "max-age=600, no-cache=\"Content-Range, Content-Length, Age\""
            let encoded = control.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let path = "/cacheable/framing?cc=\(encoded)&etag=%22f%22&bytes=1000"
            _ = try await harness.get(path)
            let part = try await harness.get(path, headers: [.range: "bytes=10-19"])
            #expect(part.cacheOutcome == .hit)
            #expect(part.head.headerFields[.contentRange] == "bytes 10-19/1000")
            #expect(part.head.headerFields[.contentLength] == "10")
            #expect(part.head.headerFields[.age] != nil)
        }
    }

    @Test func aHeadRequestIsNeverAnsweredFromAPart() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/headpart?\(Self.file)"
            _ = try await harness.get(path, headers: [.range: "bytes=0-99"])
            let head = try await harness.get(path, method: .head)
            #expect(head.status == 200)
            #expect(head.cacheOutcome == .miss)
            #expect(await harness.hits("headpart") == 2)
        }
    }

    @Test func partsSurviveARestartOnDisk() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            let path = "/cacheable/diskpart?\(Self.file)"
            try await HTTPCacheTests.withHarness(cache: try HTTPCache(directory: directory), server: server) {
                harness in
                _ = try await harness.get(path, headers: [.range: "bytes=100-199"])
            }
            try await HTTPCacheTests.withHarness(cache: try HTTPCache(directory: directory), server: server) {
                harness in
                let within = try await harness.get(path, headers: [.range: "bytes=150-159"])
                #expect(within.cacheOutcome == .hit)
                #expect(within.body == Self.pattern(150..<160))
                let whole = try await harness.get(path)
                #expect(whole.cacheOutcome == .revalidated)
                #expect(whole.body == Self.pattern(0..<1000))
            }
            // The missing bytes were before and after the part: one range held both.
            #expect(await server.events.queries(for: "range:diskpart") == ["bytes=100-199", "bytes=0-999"])
        }
    }

    // MARK: - Downloads

    @Test func aResumedDownloadTakesTheRestFromTheCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let client = HTTPClient(
                    transport: transport,
                    configuration: .init(maxResponseSize: 1 << 20, cache: try HTTPCache())
                )
                let endpoint = Endpoint<Data>(
                    url: server.url("/file/dl?bytes=300000&drop_once=100000&cc=max-age%3D600")
                )
                let destination = directory.appendingPathComponent("dl.bin")
                await #expect(throws: RequestError.self) { try await client.download(endpoint, to: destination) }
                let partial = try Data(contentsOf: destination.appendingPathExtension("download"))
                #expect(partial.count > 0 && partial.count <= 100_000)

                // Meanwhile the whole file reaches the cache.
                let whole = try await client.send(client.prepare(endpoint))
                #expect(whole.body == DownloadTests.expected(300_000))
                #expect(await server.events.hitCount("dl") == 2)

                let result = try await client.download(endpoint, to: destination)
                #expect(result.resumedFrom == Int64(partial.count))
                #expect(result.bytes == 300_000)
                #expect(result.head.status == .partialContent)
                #expect(try Data(contentsOf: destination) == DownloadTests.expected(300_000))
                #expect(await server.events.hitCount("dl") == 2, "no byte of the rest came from the origin")

                // A download from the start is a hit too; one that reloads asks the origin.
                let again = directory.appendingPathComponent("again.bin")
                #expect(try await client.download(endpoint, to: again).bytes == 300_000)
                #expect(await server.events.hitCount("dl") == 2)
                _ = try await client.download(endpoint.usingCachePolicy(.reloadIgnoringCache), to: again)
                #expect(await server.events.hitCount("dl") == 3)
            }
        }
    }

    /// Downloads read the cache by the rules `send` follows: offline, nothing stored is a 504
    /// and the origin is never asked; middleware before the cache sees cached answers too.
    @Test func downloadsFollowTheCachesRulesAndTheMiddlewareOrder() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let seen = CountingMiddleware()
                let client = HTTPClient(
                    transport: transport,
                    configuration: .init(middleware: [seen], cache: try HTTPCache())
                )
                let url = server.url("/file/offline?bytes=1000&cc=max-age%3D600")
                let endpoint = Endpoint<Data>(url: url)
                let destination = directory.appendingPathComponent("offline.bin")
                for offline in [
                    endpoint.usingCachePolicy(.returnCacheDontLoad),
                    Endpoint<Data>(url: url, headers: [.cacheControl: "only-if-cached"]),
                ] {
                    let error = await #expect(throws: RequestError.self) {
                        try await client.download(offline, to: destination)
                    }
                    #expect(error?.httpFailure?.status == 504)
                }
                #expect(await server.events.hitCount("offline") == 0)

                _ = try await client.send(client.prepare(endpoint))
                #expect(try await client.download(endpoint, to: destination).bytes == 1000)
                #expect(await server.events.hitCount("offline") == 1)
                #expect(seen.count == 4, "two offline downloads, a send and a download from the cache")
            }
        }
    }
}

/// Counts the requests that pass it.
final class CountingMiddleware: Middleware {
    private let counter = Mutex(0)
    var count: Int { counter.withLock { $0 } }

    func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        counter.withLock { $0 += 1 }
        return try await next(request)
    }
}
