import Courier
import CourierTestTraits
import Foundation
import HTTPTypes
import LibraryKit
import Testing

/// The real service on loopback, driven through `LibraryService`'s endpoints.
@Suite(.loadLimited)
struct LibraryServiceTests {
    @Test(arguments: LibraryServiceFixture.modes)
    func locationsMatchCountryPrefixesIgnoringCaseAndAccents(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, _ async throws in
            #expect(try await library.send(LibraryService.locations(country: "cote")).items.map(\.city) == ["Abidjan"])
            #expect(
                try await library.send(LibraryService.locations(country: "CÔTE D’")).items.map(\.city) == ["Abidjan"]
            )
            #expect(
                try await library.send(LibraryService.locations(country: "co")).items.map(\.city) == [
                    "San José", "Abidjan",
                ]
            )
            #expect(
                try await library.send(LibraryService.locations(country: "cura")).items.map(\.country) == ["Curaçao"]
            )
            #expect(
                try await library.send(LibraryService.locations(country: "France")).items.map(\.city) == [
                    "Paris", "Lyon",
                ]
            )
            #expect(
                try await library.send(LibraryService.locations(country: "united k")).items.first?.streetAddress
                    == "96 Euston Road"
            )
            #expect(try await library.send(LibraryService.locations(country: "rance")).items.isEmpty)
            let all = try await library.send(LibraryService.locations(country: ""))
            #expect(all.total == 6)
            #expect(all.items.map(\.country).first == "Costa Rica")
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func catalogMatchesTitlePrefixes(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, _ async throws in
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "ÉTR")).items.map(\.title) == [
                    "Étranger au paradis", "Etruscan Places",
                ]
            )
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "etra")).items.map(\.title) == [
                    "Étranger au paradis"
                ]
            )
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "l'e")).items.map(\.author) == [
                    "Albert Camus"
                ]
            )
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "strasse der ol")).items.map(\.year) == [
                    1945
                ]
            )
            #expect(
                try await library.send(LibraryService.catalog(titlePrefix: "volume 25")).items.map(\.title) == [
                    "Volume 25", "Volume 250",
                ]
            )
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func pagesCarryTheTotal(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, _ async throws in
            let first = try await library.send(LibraryService.catalog(titlePrefix: "vol"))
            #expect(first.items.count == LibraryService.defaultLimit)
            #expect(first.total == 250)
            #expect(first.hasMore)
            let last = try await library.send(LibraryService.catalog(titlePrefix: "vol", limit: 30, offset: 240))
            #expect(last.items.map(\.title) == (240..<250).map { first.items.isEmpty ? "" : sortedVolumeTitles[$0] })
            #expect(last.total == 250)
            #expect(!last.hasMore)
            let beyond = try await library.send(LibraryService.catalog(titlePrefix: "vol", limit: 10, offset: 1000))
            #expect(beyond.items.isEmpty && beyond.total == 250)
            let counted = try await library.send(LibraryService.catalog(titlePrefix: "", limit: 0))
            #expect(counted.items.isEmpty && counted.total == 254)
            let all = try await library.send(LibraryService.catalog(titlePrefix: "", limit: 1000))
            #expect(all.items.count == 254)
        }
    }

    /// "Volume 1", "Volume 10", "Volume 100", … in byte order.
    private var sortedVolumeTitles: [String] { (1...250).map { "Volume \($0)" }.sorted() }

    @Test(arguments: LibraryServiceFixture.modes)
    func badParametersGetProblemDetails(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, url async throws in
            let error = await #expect(throws: RequestError.self) {
                try await library.send(LibraryService.catalog(titlePrefix: "a", limit: 5000))
            }
            #expect(error?.httpFailure?.status == 400)
            #expect(error?.httpFailure?.contentType == "application/problem+json")
            #expect(
                error?.message
                    == "GET \(url)/catalog?q=a&limit=5000 returned 400 Bad Request: the request was rejected; check the URL, parameters and body. The server said: limit must be a whole number from 0 to 1000, not '5000'."
            )
            let response = try await library.send(
                library.prepare(
                    LibraryService.locations(country: "").appending(query: "offset", "x")
                )
            )
            #expect(response.status == 400)
            #expect(
                try JSONDecoder().decode(ProblemDetails.self, from: response.body)
                    == ProblemDetails(
                        title: "Bad Request",
                        status: 400,
                        detail: "offset must be a whole number, 0 or more, not 'x'.",
                        errors: [.init(parameter: "offset", detail: "must be a whole number, 0 or more, not 'x'")]
                    )
            )
        }
    }
}
