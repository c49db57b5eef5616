import Courier
import CourierAppFixture
import CourierTestServer
import CourierTestTraits
import Favorites
import Foundation
import HTTPTypes
import Testing

/// The tabs' endpoints over HTTP, each against its loopback stand-in.
@Suite(.loadLimited)
struct AppEndpointTests {
    /// The JSON values of a JSON Lines body.
    static func lines(_ response: DecodedResponse<Data>) throws -> [JSONValue] {
        try response.value.split(separator: UInt8(ascii: "\n")).map { try JSONValue(parsing: Data($0)) }
    }

    @Test func bytesThatAreNotAnImageBecomeAPlaceholder() async throws {
        try await AppHTTPTests.withPage { _, page in
            let found = try await page.response(.get, "/api/store/search?term=grid:1:1:0:corrupt&page=p&seq=1")
            let artwork = try #require(try JSONValue(parsing: found.value)["results"]?[0]?["artwork"]?.stringValue)
            let image = try await page.response(.get, artwork)
            #expect(image.head.headerFields[.contentType] == "image/svg+xml")
            #expect(image.head.headerFields[.cacheControl] == "no-store")
            // The app's words only: nothing of the body that was not an image (issue 28).
            #expect(image.head.headerFields[HTTPField.Name("X-Courier-Placeholder")!] == "not an image")
            #expect(String(decoding: image.value, as: UTF8.self).hasPrefix("<svg"))
        }
    }

    /// A repeated search is answered from the store client's cache (the store marks it fresh
    /// for a day), and the browser's language tag picks the store's country and language.
    @Test func repeatedSearchesComeFromTheCacheInThePagesLocale() async throws {
        try await AppHTTPTests.withPage { app, page in
            let events = app.server.events
            for sequence in 1...3 {
                let found = try await page.response(
                    .get,
                    "/api/store/search?term=king&category=all&page=p&seq=\(sequence)&locale=ja-JP"
                )
                #expect(try JSONValue(parsing: found.value)["result_count"]?.intValue ?? 0 > 0)
            }
            #expect(await events.hitCount("search:king") == 1)
            let query = try #require(await events.queries(for: "search").last)
            #expect(query.contains("country=jp") && query.contains("lang=ja_jp"), "\(query)")
            _ = try await page.response(.get, "/api/store/search?term=queen&page=p&seq=4&locale=C")
            let plain = try #require(await events.queries(for: "search").last)
            #expect(!plain.contains("country=") && !plain.contains("lang="), "\(plain)")
        }
    }

    /// The store's refusal pauses every page's searches: the app answers 429 with the wait,
    /// and does not ask the store again until the wait is over.
    @Test(arguments: [("rate:429:30", 30), ("rate:403", 10)])
    func aRefusingStorePausesSearchesWithoutAskingItAgain(term: String, seconds: Int) async throws {
        try await AppHTTPTests.withPage { app, page in
            let events = app.server.events
            let refused = try await Self.failure(page, "/api/store/search?term=\(term)&page=p&seq=1")
            #expect(refused.status == 429)
            #expect(refused.retryAfter == .seconds(seconds))
            #expect(refused.bodyExcerpt.contains("searching again in \(seconds) s"))
            let other = try await Self.failure(page, "/api/store/search?term=king&page=other&seq=1")
            #expect(other.status == 429)
            #expect((other.retryAfter ?? .zero) <= .seconds(seconds))
            #expect(await events.hitCount("search:king") == 0, "the store is not asked during the pause")
            #expect(await events.hitCount("search:\(term)") == 1)
        }
    }

    /// The HTTP failure `path` answers with.
    static func failure(_ page: AppPageClient, _ path: String) async throws -> HTTPFailure {
        do {
            let response = try await page.response(.get, path)
            throw WebDriverError("\(path) answered \(response.head.status)")
        } catch let error as RequestError {
            return try #require(error.httpFailure)
        }
    }

    @Test func oneDownloadServesEveryWaiterAndTheLastToLeaveCancelsIt() async throws {
        try await AppHTTPTests.withListeningPage { app, page in
            let events = app.server.events
            await events.hold(["artwork:shared0-60.png"])
            let found = try await page.response(.get, "/api/store/search?term=grid:2:1:0:shared&page=p&seq=1")
            let rows = try JSONValue(parsing: found.value)["results"]?.arrayValue ?? []
            #expect(rows.count == 2)
            let artwork = try #require(rows.first?["artwork"]?.stringValue)
            #expect(rows.last?["artwork"]?.stringValue == artwork, "two rows, one image")
            let first = Task { try await page.response(.get, artwork) }
            let second = Task { try await page.response(.get, artwork) }
            try await events.waitForHit("artwork-request:shared0-60.png")
            first.cancel()
            second.cancel()
            try await events.waitForDisconnect("artwork:shared0-60.png")
            #expect(await events.hitCount("artwork-request:shared0-60.png") == 1)
            _ = await (first.result, second.result)
        }
    }

    @Test func favouritesRefreshWithProgressAndTheChartPages() async throws {
        try await AppHTTPTests.withPage { app, page in
            _ = try await app.favorites.addMember("Anna")
            try await app.favorites.addFavorite("Dune", for: "Anna")
            try await app.favorites.addFavorite("Nothing Like This Title", for: "Anna")
            let refresh = try await page.response(.post, "/api/movies/refresh", headers: [.origin: page.origin])
            let lines = try Self.lines(refresh)
            #expect(lines.first?["done"]?.intValue == 0)
            #expect(lines.first?["total"]?.intValue == 2)
            let summary = try #require(lines.last)
            #expect(summary["total"]?.intValue == 2)
            #expect(summary["rated"]?.intValue == 1)
            #expect(summary["failed"]?.intValue == 1)
            let favorites = try await app.favorites.favorites(of: "Anna")
            #expect(favorites.first { $0.title == "Dune" }?.popularity != nil)

            let second = try JSONValue(parsing: try await page.response(.get, "/api/movies/top-rated?page=2").value)
            #expect(second["page"]?.intValue == 2)
            #expect(second["results"]?.arrayValue?.isEmpty == false)
            #expect(try await page.status(.get, "/api/movies/top-rated?page=0") == 400)
        }
    }

    @Test func theFeedAndTheLibraryAnswerAndBadAddressesAreRefused() async throws {
        // On the wire: the stream's `Connection: close` must leave the next requests working.
        try await AppHTTPTests.withListeningPage { _, page in
            let feed = try await page.response(.get, "/api/feed?example")
            // The stream watches for the browser leaving, which ends the connection: it says so,
            // and the next request goes on a new one.
            #expect(feed.head.headerFields[.connection] == "close")
            let example = try Self.lines(feed)
            #expect(example.count == 13)
            #expect(example.first?["entry"]?["title"]?.stringValue?.hasPrefix("Courier 1.0") == true)
            #expect(example.last?["feed"]?["title"]?.stringValue == "Courier news (example feed)")
            #expect(try await page.status(.get, "/api/feed?url=file%3A%2F%2F%2Fetc%2Fpasswd") == 400)
            #expect(try await page.status(.get, "/api/refs?url=git%3A%2F%2Fexample.org%2Frepo.git") == 403)

            let books = try JSONValue(
                parsing: try await page.response(.get, "/api/library/catalog?q=the%20great").value
            )
            #expect(books["items"]?[0]?["title"]?.stringValue == "The Great Gatsby")
            #expect(try await page.status(.get, "/api/library/catalog?q=x&offset=-1") == 400)
        }
    }
}
