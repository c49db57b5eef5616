import CourierTestTraits
import Foundation
import LibraryKit
import Testing

@testable import LibrarySearch

@Suite(.loadLimited)
struct SearchableListTests {
    let books = [
        Book(title: "Emma", author: "Jane Austen", year: 1815),
        Book(title: "Dune", author: "Frank Herbert", year: 1965, isbn: "978-0-441-17271-9"),
        Book(title: "Dubliners", author: "James Joyce", year: 1914),
        Book(title: "Quote \"and\" back\\slash\n\u{1}", author: "Ünïcödé 🇫🇷", year: -800),
        Book(title: "Du", author: "X", year: 1, coverURL: URL(string: "https://covers.example/1.jpg?a=b&c=/d")),
    ]

    @Test func pagesCountFromTheFirstMatch() {
        let list = SearchableList(books, key: \.title)
        let result = list.search("du", limit: 2, offset: 1)
        #expect(result.total == 3)
        #expect(list.items(in: result).map(\.title) == ["Dubliners", "Dune"])
        #expect(list.search("du", limit: 10, offset: 5).page.isEmpty)
        #expect(list.search("du", limit: 0, offset: 0).total == 3)
    }

    @Test func jsonDecodesToTheSameItemsAsTheModel() throws {
        let list = SearchableList(books, key: \.title)
        let result = list.search("", limit: 100, offset: 0)
        let decoded = try JSONDecoder().decode([Book].self, from: Data(list.json(for: result)))
        #expect(decoded == Array(list.items(in: result)))
        #expect(Set(decoded) == Set(books))
    }

    @Test func jsonMatchesJSONEncoderValueForValue() throws {
        let list = SearchableList(books, key: \.title)
        let result = list.search("", limit: 100, offset: 0)
        let ours = try JSONSerialization.jsonObject(with: Data(list.json(for: result))) as? NSArray
        let encoder = JSONEncoder()
        let theirs = try JSONSerialization.jsonObject(with: encoder.encode(Array(list.items(in: result)))) as? NSArray
        #expect(ours == theirs)
    }

    @Test func emptyPagesAreEmptyArrays() {
        let list = SearchableList(books, key: \.title)
        #expect(list.json(for: list.search("zzz", limit: 10, offset: 0)) == Array("[]".utf8))
        #expect(list.json(for: list.search("", limit: 0, offset: 0)) == Array("[]".utf8))
    }

    @Test func fingerprintsTellDataSetsApart() {
        let list = SearchableList(books, key: \.title)
        #expect(list.fingerprint == SearchableList(books.reversed(), key: \.title).fingerprint)
        #expect(list.fingerprint != SearchableList(Array(books.dropLast()), key: \.title).fingerprint)
    }
}
