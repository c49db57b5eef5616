import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Stale responses through the cache: `stale-while-revalidate` and `stale-if-error` (RFC 5861)
/// against the loopback server, whose held requests and hit counters show what reached the
/// origin and when.
@Suite(.loadLimited)
struct HTTPCacheStaleTests {
    /// Stale on arrival by 600 s (Age 1200, max-age 600), within a window of 6000 s. The 304 that
    /// revalidates it carries no Age: fresh again.
    static let withinWindow = "cc=max-age%3D600%2C%20stale-while-revalidate%3D6000&etag=%22s1%22&age=1200"

    @Test func aStaleResponseAnswersAtOnceWhileTheCacheRevalidatesIt() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/swr?\(Self.withinWindow)"
            _ = try await harness.get(path)
            // The origin holds the revalidation: the answers cannot wait for it.
            await harness.server.events.hold(["cacheable:swr"])
            let stale = try await harness.get(path)
            #expect(stale.cacheOutcome == .stale)
            #expect(harness.text(stale) == "swr #1")
            try await harness.server.events.waitForHit("swr", count: 2, timeout: .seconds(60))
            // One revalidation per URL: a second stale answer starts none.
            let again = try await harness.get(path)
            #expect(again.cacheOutcome == .stale)
            await harness.server.events.release("cacheable:swr")
            await harness.cache.waitForRevalidations()
            #expect(await harness.hits("swr") == 2)
            #expect(await harness.hits("swr:304") == 1)
            #expect(await harness.server.events.queries(for: "range:swr") == ["-", "-"])

            // The 304 freshened the stored response.
            let fresh = try await harness.get(path)
            #expect(fresh.cacheOutcome == .hit)
            #expect(harness.text(fresh) == "swr #1")
            #expect(await harness.hits("swr") == 2)
        }
    }

    @Test func theBackgroundRevalidationStoresAChangedResponse() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/swrchanged?\(Self.withinWindow)&change_after=1"
            _ = try await harness.get(path)
            #expect(try await harness.get(path).cacheOutcome == .stale)
            await harness.cache.waitForRevalidations()
            // The origin answered 200 with a new tag (and Age 1200 again: stale on arrival).
            let next = try await harness.get(path)
            #expect(next.head.headerFields[.eTag] == "\"changed\"")
            #expect(harness.text(next) == "swrchanged #2")
        }
    }

    @Test func outsideTheWindowOrWhenTheResponseMustRevalidateTheAnswerWaits() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let paths = [
                "beyond": "cc=max-age%3D600%2C%20stale-while-revalidate%3D100&etag=%22b%22&age=1200",
                "strict":
                    "cc=max-age%3D600%2C%20stale-while-revalidate%3D6000%2C%20must-revalidate&etag=%22m%22&age=1200",
            ]
            for (key, query) in paths {
                _ = try await harness.get("/cacheable/\(key)?\(query)")
                let second = try await harness.get("/cacheable/\(key)?\(query)")
                #expect(second.cacheOutcome == .revalidated, "\(key)")
                #expect(await harness.hits("\(key):304") == 1, "\(key)")
            }
            // A request's own no-cache or max-age asks for validation first, too.
            let path = "/cacheable/asks?\(Self.withinWindow)"
            _ = try await harness.get(path)
            for control in ["no-cache", "max-age=0"] {
                let validated = try await harness.get(path, headers: [.cacheControl: control])
                #expect(validated.cacheOutcome == .revalidated, "\(control)")
            }
            #expect(harness.cache.revalidations.count == 0)
        }
    }

    /// The client has no timeout: only cancelling can end the held revalidation before the
    /// test releases it. Were it not cancelled, shutting down would wait for the server's hold
    /// to run out, the 304 would freshen the response, and the last answer would be a HIT.
    @Test func shuttingDownCancelsTheRevalidationAndLaterAnswersWait() async throws {
        try await HTTPCacheTests.withHarness(timeout: nil) { harness in
            let path = "/cacheable/swrdown?\(Self.withinWindow)"
            _ = try await harness.get(path)
            await harness.server.events.hold(["cacheable:swrdown"])
            #expect(try await harness.get(path).cacheOutcome == .stale)
            try await harness.server.events.waitForHit("swrdown", count: 2, timeout: .seconds(60))
            // The origin still holds it: only cancelling ends it.
            await harness.cache.shutdown()
            #expect(harness.cache.revalidations.count == 0)
            await harness.server.events.release("cacheable:swrdown")
            let waited = try await harness.get(path)
            #expect(waited.cacheOutcome == .revalidated)
            #expect(await harness.hits("swrdown") == 3)
        }
    }

    @Test func aStaleHeadIsRevalidatedWithAGetThatStoresTheNewResponse() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/swrhead?\(Self.withinWindow)&change_after=1"
            _ = try await harness.get(path)
            let head = try await harness.get(path, method: .head)
            #expect(head.cacheOutcome == .stale)
            await harness.cache.waitForRevalidations()
            let next = try await harness.get(path)
            #expect(harness.text(next) == "swrhead #2", "the background GET's 200 replaced the stored response")
        }
    }

    // MARK: - stale-if-error

    @Test func staleIfErrorHasAWindowAndMayComeFromTheRequest() async throws {
        try await HTTPCacheTests.withHarness { harness in
            // Stale by 600 s; the response allows 100 s of errors, the request 1000 s.
            let path = "/cacheable/siewindow?cc=max-age%3D600%2C%20stale-if-error%3D100&age=1200&fail_after=1"
            _ = try await harness.get(path)
            let failed = try await harness.get(path)
            #expect(failed.status == 503)
            #expect(failed.cacheOutcome == .miss)
            let served = try await harness.get(path, headers: [.cacheControl: "stale-if-error=1000"])
            #expect(served.status == 200)
            #expect(served.cacheOutcome == .stale)
            #expect(harness.text(served) == "siewindow #1")
            #expect(await harness.hits("siewindow") == 3)
        }
    }
}
