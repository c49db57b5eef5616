import CourierTestTraits
import LibraryKit
import LibrarySearch
import Testing

@Suite(.loadLimited)
struct EmbeddedDataTests {
    @Test func coversAtLeastFortyCountriesAndFiveHundredBooks() throws {
        let data = try LibraryData.embedded()
        #expect(Set(data.locations.map(\.country)).count >= 40)
        #expect(data.books.count >= 500)
    }

    @Test func everyLocationFliesItsCountrysFlag() throws {
        for location in try LibraryData.embedded().locations {
            let scalars = Array(location.emoji.unicodeScalars)
            let isFlag =
                (scalars.count == 2 && scalars.allSatisfy { (0x1F1E6...0x1F1FF).contains($0.value) })
                || scalars.first?.value == 0x1F3F4
            #expect(isFlag, "\(location.city), \(location.country): '\(location.emoji)'")
            #expect(!location.streetAddress.isEmpty && !location.hours.isEmpty, "\(location.city)")
        }
    }

    @Test func booksAreUniqueAndDated() throws {
        let books = try LibraryData.embedded().books
        var seen = Set<String>()
        for book in books {
            #expect(seen.insert("\(book.title)|\(book.author ?? "")").inserted, "duplicate: \(book.title)")
            let year = try #require(book.year, "\(book.title) has no year")
            #expect((-2000...2026).contains(year), "\(book.title): \(year)")
        }
    }
}
