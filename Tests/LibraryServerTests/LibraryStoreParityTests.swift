import Courier
import CourierTestTraits
import Foundation
import HTTPTypes
import LibraryKit
import LibrarySearch
import Testing

/// The edges where a database could answer differently from the in-memory index: LIKE's own
/// characters in a prefix, ties, empty pages and offsets past the end. Each runs in every mode.
@Suite(.loadLimited)
struct LibraryStoreParityTests {
    static let data = LibraryData(
        locations: LibraryServiceFixture.locations,
        books: [
            Book(title: "100% Pure", author: "A"),
            Book(title: "100_ Things"),
            Book(title: "1000 Days", year: 2001),
            Book(title: "Back\\slash"),
            Book(title: "Backslash"),
            Book(title: "Dune", author: "First"),
            Book(title: "DUNE", author: "Second"),
            Book(title: "Düne", author: "Third"),
            Book(title: "Dune Messiah"),
        ]
    )

    @Test(arguments: LibraryServiceFixture.modes)
    func prefixesAreTextNotPatterns(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(Self.data, mode: mode) { library, _ async throws in
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "100%")).items.map(\.title) == ["100% Pure"]
            )
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "100_")).items.map(\.title) == [
                    "100_ Things"
                ]
            )
            #expect(try await library.send(LibraryService.catalog(titlePrefix: "100")).total == 3)
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "back\\")).items.map(\.title) == [
                    "Back\\slash"
                ]
            )
            #expect(try await library.send(LibraryService.catalog(titlePrefix: "%")).total == 0)
            #expect(try await library.send(LibraryService.catalog(titlePrefix: "_")).total == 0)
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func tiesKeepTheOrderTheyWereAddedIn(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(Self.data, mode: mode) { library, _ async throws in
            let dunes = try await library.send(LibraryService.catalog(titlePrefix: "dune"))
            #expect(dunes.items.map { $0.author ?? "-" } == ["First", "Second", "Third", "-"])
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "dune", limit: 2, offset: 1)).items.map(
                    \.author
                ) == [
                    "Second", "Third",
                ]
            )
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func emptyPagesStillCarryTheTotal(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(Self.data, mode: mode) { library, _ async throws in
            let none = try await library.send(LibraryService.catalog(titlePrefix: "dune", limit: 0))
            #expect(none.items.isEmpty)
            #expect(none.total == 4)
            let past = try await library.send(LibraryService.catalog(titlePrefix: "", offset: 1_000_000_000))
            #expect(past.items.isEmpty)
            #expect(past.total == 9)
            let all = try await library.send(LibraryService.catalog(titlePrefix: ""))
            #expect(all.items.map(\.title).first == "100% Pure")
            #expect(all.items.count == 9)
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func theHugestOffsetIsAnEmptyPage(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(Self.data, mode: mode) { library, url async throws in
            let huge = try await library.send(
                library.prepare(
                    Endpoint<Data>(
                        url: try #require(URL(string: url.absoluteString + "/catalog?offset=99999999999999999999999"))
                    )
                )
            )
            #expect(huge.status == 200)
            #expect(String(decoding: huge.body, as: UTF8.self) == "[]")
            #expect(huge.head.headerFields[.totalCount] == "9")
        }
    }
}
