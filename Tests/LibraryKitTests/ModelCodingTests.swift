import Courier
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import LibraryKit
import Testing

@Suite(.loadLimited)
struct ModelCodingTests {
    @Test func locationsUseTheChaptersSnakeCaseKeys() throws {
        let json =
            #"{"street_address": "123 Eiffel Tower Street", "city": "Paris", "country": "France", "emoji": "🇫🇷", "hours": "8am–7pm"}"#
        let location = try JSONDecoder().decode(Location.self, from: Data(json.utf8))
        #expect(
            location
                == Location(
                    streetAddress: "123 Eiffel Tower Street",
                    city: "Paris",
                    country: "France",
                    emoji: "🇫🇷",
                    hours: "8am–7pm"
                )
        )
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(location)) as? [String: String]
        #expect(encoded?.keys.sorted() == ["city", "country", "emoji", "hours", "street_address"])
    }

    @Test func booksLeaveOutWhatTheyDoNotHave() throws {
        let book = Book(title: "Middlemarch", author: "George Eliot", year: 1871)
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(book)) as? [String: Any]
        #expect(encoded?.keys.sorted() == ["author", "title", "year"])
        let withCover =
            #"{"title": "T", "author": "A", "year": -800, "isbn": "0306406152", "cover_url": "https://covers.example/1.jpg"}"#
        let decoded = try JSONDecoder().decode(Book.self, from: Data(withCover.utf8))
        #expect(decoded.coverURL?.host == "covers.example")
        #expect(decoded.year == -800)
    }

    @Test func endpointsCarryTheSearchAndThePage() throws {
        let client = HTTPClient(
            transport: StubTransport(),
            configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080"))
        )
        #expect(
            try client.prepare(LibraryService.locations(country: "Côte d'")).url
                == "http://127.0.0.1:8080/locations?country=C%C3%B4te%20d%27"
        )
        #expect(
            try client.prepare(LibraryService.catalog(titlePrefix: "a&b", limit: 5, offset: 10)).url
                == "http://127.0.0.1:8080/catalog?q=a%26b&limit=5&offset=10"
        )
    }

    /// A service without `X-Total-Count` (the chapter's Node original) is read as having sent everything.
    @Test func pagesWithoutATotalCountWhatArrived() async throws {
        let stub = StubTransport()
        stub.on(.get, "/catalog", .json(#"[{"title": "Emma", "author": "Jane Austen", "year": 1815}]"#))
        let library = HTTPClient(
            transport: stub,
            configuration: .library(service: URL(string: "http://127.0.0.1:3000")!)
        )
        let page = try await library.send(LibraryService.catalog(titlePrefix: "e", offset: 4))
        #expect(page.total == 5)
        #expect(!page.hasMore)
    }
}
