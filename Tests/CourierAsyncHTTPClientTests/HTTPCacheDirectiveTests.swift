import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// Request directives (RFC 9111 §5.2.1) and field-qualified `no-cache` and `private` (§5.2.2)
/// through the cache, against the loopback server's hit counters.
@Suite(.loadLimited)
struct HTTPCacheDirectiveTests {
    // MARK: - Request directives

    /// Each request directive against a response stored 100 s ago with max-age 600 (fresh for
    /// 500 s more), or 700 s ago (stale by 100 s): whether the stored response answers.
    @Test(arguments: [
        ("max-age=1000", 100, CacheOutcome.hit),
        ("max-age=50", 100, .revalidated),
        ("max-age=0", 100, .revalidated),
        ("min-fresh=400", 100, .hit),
        ("min-fresh=600", 100, .revalidated),
        ("max-stale", 700, .stale),
        ("max-stale=200", 700, .stale),
        ("max-stale=50", 700, .revalidated),
        ("MAX-STALE = 200", 700, .stale),
        ("no-cache", 100, .revalidated),
    ])
    func requestDirectivesBoundWhatTheCacheMayUse(control: String, age: Int, outcome: CacheOutcome) async throws {
        try await HTTPCacheTests.withHarness { harness in
            let key = "req" + control.filter { $0.isLetter || $0.isNumber }
            let path = "/cacheable/\(key)?cc=max-age%3D600&etag=%22d%22&age=\(age)"
            _ = try await harness.get(path)
            let response = try await harness.get(path, headers: [.cacheControl: control])
            #expect(response.cacheOutcome == outcome, "\(control)")
            #expect(await harness.hits(key) == (outcome == .revalidated ? 2 : 1), "\(control)")
        }
    }

    @Test func onlyIfCachedAnswersFromTheCacheOrWithA504() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let offline: HTTPFields = [.cacheControl: "only-if-cached"]
            let nothing = try await harness.get("/cacheable/oicnone?cc=max-age%3D600", headers: offline)
            #expect(nothing.status == 504)
            #expect(await harness.hits("oicnone") == 0)

            let fresh = "/cacheable/oicfresh?cc=max-age%3D600"
            _ = try await harness.get(fresh)
            #expect(try await harness.get(fresh, headers: offline).cacheOutcome == .hit)

            // Stale: not usable unless the request also accepts it stale.
            let stale = "/cacheable/oicstale?cc=max-age%3D600&age=700"
            _ = try await harness.get(stale)
            #expect(try await harness.get(stale, headers: offline).status == 504)
            let accepted = try await harness.get(stale, headers: [.cacheControl: "only-if-cached, max-stale"])
            #expect(accepted.status == 200)
            #expect(accepted.cacheOutcome == .stale)
            #expect(await harness.hits("oicfresh") == 1)
            #expect(await harness.hits("oicstale") == 1)
        }
    }

    @Test func noTransformAndOtherRequestDirectivesReachTheOrigin() async throws {
        try await HTTPCacheTests.withHarness { harness in
            let path = "/cacheable/notransform?cc=no-transform%2C%20max-age%3D600"
            let first = try await harness.get(path, headers: [.cacheControl: "no-transform"])
            #expect(harness.text(first) == "notransform #1")
            #expect(first.head.headerFields[.cacheControl] == "no-transform, max-age=600")
            _ = try await harness.get(path, headers: [.cacheControl: "no-transform, max-age=0"])
            #expect(
                await harness.server.events.queries(for: "cc:notransform") == [
                    "no-transform", "no-transform, max-age=0",
                ]
            )
        }
    }

    // MARK: - Qualified no-cache and private

    @Test(arguments: ["no-cache", "private"])
    func namedFieldsAreGivenOnlyAfterValidation(directive: String) async throws {
        try await HTTPCacheTests.withHarness { harness in
            let control = "max-age=600, \(directive)=\"X-Session, X-Other\""
            let encoded = control.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let path = "/cacheable/\(directive)fields?cc=\(encoded)&etag=%22f%22&extra=X-Session:abc&extra=X-Kept:yes"
            let session = try #require(HTTPField.Name("X-Session"))
            let kept = try #require(HTTPField.Name("X-Kept"))
            let first = try await harness.get(path)
            #expect(first.head.headerFields[session] == "abc")

            // Reused without asking the origin, without the named field.
            let hit = try await harness.get(path)
            #expect(hit.cacheOutcome == .hit)
            #expect(hit.head.headerFields[session] == nil)
            #expect(hit.head.headerFields[kept] == "yes")
            #expect(harness.text(hit) == "\(directive)fields #1")

            // Once validated, the stored response gives it again.
            let validated = try await harness.get(path, headers: [.cacheControl: "no-cache"])
            #expect(validated.cacheOutcome == .revalidated)
            #expect(validated.head.headerFields[session] == "abc")
            #expect(await harness.hits("\(directive)fields") == 2)
        }
    }

    @Test func unqualifiedNoCacheStillValidatesEveryUse() async throws {
        try await HTTPCacheTests.withHarness { harness in
            // Every occurrence counts: an unqualified no-cache anywhere wins over field names.
            for control in [
                "no-cache", "no-cache=\"\"", "No-Cache, max-age=600", "max-age=600, no-cache=\"X-A\", no-cache",
            ] {
                let encoded = control.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let key = "unqualified" + control.filter { $0.isLetter || $0.isNumber }
                let path = "/cacheable/\(key)?cc=\(encoded)&etag=%22u%22"
                _ = try await harness.get(path)
                #expect(try await harness.get(path).cacheOutcome == .revalidated, "\(control)")
            }
        }
    }
}
