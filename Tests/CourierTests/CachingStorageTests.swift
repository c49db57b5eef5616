import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// What the client's cache stage stores, called directly with a `next` of the test's own.
@Suite(.loadLimited)
struct CachingStorageTests {
    static let request = PreparedRequest(
        head: HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/doc")
    )

    /// A response whose body went elsewhere (a download's file, a stream), or was cut short,
    /// is never stored: its Content-Length says what the body should be.
    @Test func aBodyShorterThanItsContentLengthIsNotStored() async throws {
        let caching = Caching(try HTTPCache(), now: { Date() })
        let cut = RawResponse(
            head: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=600", .contentLength: "1000"]),
            body: Data(count: 10),
            url: Self.request.url
        )
        _ = try await caching.send(Self.request) { _ in cut }
        #expect(await caching.cache.variants(forKey: Caching.key(for: Self.request)).isEmpty)

        let whole = RawResponse(
            head: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=600", .contentLength: "10"]),
            body: Data(count: 10),
            url: Self.request.url
        )
        _ = try await caching.send(Self.request) { _ in whole }
        let hit = try await caching.send(Self.request) { _ in cut }
        #expect(hit.cacheOutcome == .hit)
        #expect(hit.body.count == 10)
    }
}
