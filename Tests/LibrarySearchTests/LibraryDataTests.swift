import CourierTestTraits
import Foundation
import LibraryKit
import LibrarySearch
import Testing

@Suite(.loadLimited)
struct LibraryDataTests {
    /// A data directory in a fresh temporary folder, removed when the test ends.
    static func withDataDirectory<Result>(
        catalog: String,
        locations: String =
            #"[{"street_address": "1 Rue", "city": "Paris", "country": "France", "emoji": "🇫🇷", "hours": "9am–5pm"}]"#,
        _ body: (URL) throws -> Result
    ) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(catalog.utf8).write(to: directory.appendingPathComponent("catalog.json"))
        try Data(locations.utf8).write(to: directory.appendingPathComponent("locations.json"))
        return try body(directory)
    }

    private func loadError(catalog: String) throws -> String {
        try Self.withDataDirectory(catalog: catalog) { directory in
            do throws(DataFileError) {
                _ = try LibraryData.load(from: directory)
                return "loaded"
            } catch {
                let description = error.description
                return String(description[description.range(of: "catalog.json")!.lowerBound...])
            }
        }
    }

    @Test func loadsBothFiles() throws {
        let data = try Self.withDataDirectory(catalog: #"[{"title": "Dune", "author": "Frank Herbert", "year": 1965}]"#)
        {
            try LibraryData.load(from: $0)
        }
        #expect(data.books == [Book(title: "Dune", author: "Frank Herbert", year: 1965)])
    }

    /// The chapter's own catalog.json has books with only a title.
    @Test func booksNeedOnlyATitle() throws {
        let data = try Self.withDataDirectory(
            catalog:
                #"[{"title": "Dune"}, {"title": "Emma", "author": "Jane Austen"}, {"title": "Beowulf", "year": null}]"#
        ) { try LibraryData.load(from: $0) }
        #expect(
            data.books == [Book(title: "Dune"), Book(title: "Emma", author: "Jane Austen"), Book(title: "Beowulf")]
        )
        let library = Library(data)
        #expect(
            String(decoding: library.catalog.json(for: library.catalog.search("", limit: 3, offset: 0)), as: UTF8.self)
                == #"[{"title":"Beowulf"},{"title":"Dune"},{"title":"Emma","author":"Jane Austen"}]"#
        )
        #expect(data.locations.map(\.city) == ["Paris"])
    }

    @Test(
        arguments: [
            (
                "[\n  {\"title\": \"Dune\", \"author\": \"F\", \"year\": 1965},\n  {\"title\": x}\n]",
                "catalog.json:3:13: not valid JSON: expected a value, found 'x'"
            ),
            (
                "[{\"title\": \"Dune\", \"author\": \"F\", \"year\": 1965}",
                "catalog.json:1:48: not valid JSON: unexpected end of the text: the array opened at line 1, column 1 is not closed"
            ),
            (
                "[{\"title\": \"Dune\", \"author\": \"F\",\n \"year\": \"1965\"}]",
                "catalog.json:2:10: [0].year: expected a whole number, found a string"
            ),
            (
                "[{\"title\": \"Dune\", \"author\": \"F\", \"year\": 1965},\n {\"author\": \"J\", \"year\": 1815}]",
                "catalog.json:2:2: [1]: the book has no \"title\""
            ),
            ("{\"books\": []}", "catalog.json:1:1: expected an array of books, found an object"),
            (
                "[{\"title\": \"  \", \"author\": \"F\", \"year\": 1965}]",
                "catalog.json:1:12: [0].title: the title is empty"
            ),
            (
                "[{\"title\": \"Dune\", \"author\": \"F\", \"year\": 1965, \"isbn\": \"978-0-441-17271-8\"}]",
                "catalog.json:1:57: [0].isbn: \"978-0-441-17271-8\" is not a valid ISBN-10 or ISBN-13 (check the digits, or leave it out)"
            ),
            (
                "[{\"title\": \"Dune\", \"author\": \"F\", \"year\": 1965, \"cover_url\": \"ftp://x/y.jpg\"}]",
                "catalog.json:1:62: [0].cover_url: \"ftp://x/y.jpg\" is not an http or https URL"
            ),
            (
                "[{\"title\": \"Dune\", \"author\": \"\", \"year\": 1965}]",
                "catalog.json:1:30: [0].author: the author is empty: leave it out if unknown"
            ),
            (
                "[{\"title\": \"Du\\u0000ne\"}]",
                "catalog.json:1:12: [0].title: contains a NUL character (\\u0000): remove it"
            ),
            (
                "[{\"title\": null}]",
                "catalog.json:1:12: [0].title: expected a string, found null"
            ),
            (
                "[{\"title\": \"Dune\\q\", \"author\": \"F\", \"year\": 1}]",
                "catalog.json:1:17: not valid JSON: invalid escape '\\q': use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"
            ),
        ]
    )
    func malformedFilesAreExplainedWithTheirPosition(_ catalog: String, _ expected: String) throws {
        let explanation = try loadError(catalog: catalog)
        #expect(explanation == expected)
    }

    @Test func aMissingFileIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
        #expect(throws: DataFileError.self) { try LibraryData.load(from: directory) }
        do throws(DataFileError) {
            _ = try LibraryData.load(from: directory)
        } catch {
            #expect(
                error.description
                    == "\(directory.path)/locations.json: no such file: a data directory holds locations.json and catalog.json"
            )
        }
    }

    @Test func validISBNsPass() throws {
        let catalog = #"""
            [{"title": "A", "author": "B", "year": 1, "isbn": "0-306-40615-2"},
             {"title": "C", "author": "D", "year": 2, "isbn": "080442957X"},
             {"title": "E", "author": "F", "year": 3, "isbn": "978-3-16-148410-0"}]
            """#
        #expect(try loadError(catalog: catalog) == "loaded")
    }
}
