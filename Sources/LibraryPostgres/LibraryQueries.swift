import Foundation
import LibraryKit
import LibrarySearch
import PostgresNIO

/// Every statement the library runs on its rows, in one place: the searches and reads of
/// ``PostgresLibrary`` and the changes of ``LibraryDatabase``. The tables, their indexes, the
/// counters and the notifications are made by the migrations in `LibrarySchema`.
///
/// Table and column names are constants here, never input; every value is a bound parameter.
enum LibraryQueries {
    // MARK: - Reading

    /// The page of `list` whose keys start with `prefix` (already folded), with the total and
    /// the data's version, all from one snapshot: rows in key order, found by a range scan of
    /// the key's B-tree. The total of a whole list comes from the counter the database keeps;
    /// the total of a prefix counts the matching index entries, never the table.
    ///
    /// Decodes as `(Int64, Int64, String?)`: the version, the total, and the page's JSON
    /// objects joined by commas (`nil` for an empty page).
    static func search(_ list: LibraryList, prefix: String, limit: Int, offset: Int) -> PostgresQuery {
        let (table, column, counter) =
            switch list {
            case .locations: ("library_locations", "country_key", "location_count")
            case .catalog: ("library_books", "title_key", "book_count")
            }
        let pattern = likePattern(prefix: prefix)
        // Custom plans see the pattern's value, so its fixed start becomes an index range.
        return """
            SELECT s.version,
                CASE WHEN \(prefix.isEmpty) THEN s.\(unescaped: counter)
                    ELSE (SELECT count(*) FROM \(unescaped: table) WHERE \(unescaped: column) LIKE \(pattern)) END,
                (SELECT string_agg(page.json, ',' ORDER BY page.key, page.id) FROM (
                    SELECT json, \(unescaped: column) AS key, id FROM \(unescaped: table)
                    WHERE \(unescaped: column) LIKE \(pattern)
                    ORDER BY \(unescaped: column), id LIMIT \(Int64(limit)) OFFSET \(Int64(clamping: offset))
                ) AS page)
            FROM library_state s
            """
    }

    /// `prefix%`, with LIKE's `%`, `_` and `\` escaped in the prefix.
    static func likePattern(prefix: String) -> String {
        var pattern = ""
        pattern.reserveCapacity(prefix.utf8.count + 1)
        for character in prefix.unicodeScalars {
            if character == "%" || character == "_" || character == "\\" { pattern.unicodeScalars.append("\\") }
            pattern.unicodeScalars.append(character)
        }
        return pattern + "%"
    }

    /// The data's version, which every change raises: decodes as `Int64`.
    static let version: PostgresQuery = "SELECT version FROM library_state"

    /// The number of locations and of books: decodes as `(Int64, Int64)`.
    static let counts: PostgresQuery = "SELECT location_count, book_count FROM library_state"

    // MARK: - Importing

    /// Empties the locations, in an import's transaction.
    static let deleteLocations: PostgresQuery = "DELETE FROM library_locations"
    /// Empties the books, in an import's transaction.
    static let deleteBooks: PostgresQuery = "DELETE FROM library_books"

    /// The table and columns an import copies locations into, in the order of ``locationRow(_:_:)``.
    static let locationCopy = (
        table: "library_locations",
        columns: ["street_address", "city", "country", "emoji", "hours", "country_key", "json"]
    )
    /// The table and columns an import copies books into, in the order of ``bookRow(_:_:)``.
    static let bookCopy = (
        table: "library_books",
        columns: ["title", "author", "year", "isbn", "cover_url", "title_key", "json"]
    )

    /// A location's row, in the order of ``locationCopy``.
    static func locationRow(_ location: Location, _ row: inout CopyText.Row) {
        row.field(location.streetAddress)
        row.field(location.city)
        row.field(location.country)
        row.field(location.emoji)
        row.field(location.hours)
        row.field(key(location.country))
        row.field(json(location))
    }

    /// A book's row, in the order of ``bookCopy``.
    static func bookRow(_ book: Book, _ row: inout CopyText.Row) {
        row.field(book.title)
        row.field(book.author)
        row.field(book.year.map(String.init))
        row.field(book.isbn)
        row.field(book.coverURL?.absoluteString)
        row.field(key(book.title))
        row.field(json(book))
    }

    /// After an import: fresh statistics, and a visibility map that lets totals come from the
    /// index alone. Outside a transaction.
    static let analyze: [PostgresQuery] = ["VACUUM (ANALYZE) library_locations", "VACUUM (ANALYZE) library_books"]

    // MARK: - Single changes

    /// Adds one book.
    static func insertBook(_ book: Book) -> PostgresQuery {
        let (key, json) = (key(book.title), json(book))
        return """
            INSERT INTO library_books (title, author, year, isbn, cover_url, title_key, json)
            VALUES (\(book.title), \(book.author), \(book.year), \(book.isbn), \(book.coverURL?.absoluteString), \(key), \(json))
            """
    }

    /// Inserts one location.
    static func insertLocation(_ location: Location) -> PostgresQuery {
        let (key, json) = (key(location.country), json(location))
        return """
            INSERT INTO library_locations (street_address, city, country, emoji, hours, country_key, json)
            VALUES (\(location.streetAddress), \(location.city), \(location.country), \(location.emoji), \(location.hours), \(key), \(json))
            """
    }

    /// Removes the location with `id`.
    static func deleteLocation(id: Int64) -> PostgresQuery {
        "DELETE FROM library_locations WHERE id = \(id)"
    }

    /// Every location, locked for the transaction: decodes as
    /// `(Int64, String, String, String, String, String)`, the id and the location's fields.
    static let locationsForUpdate: PostgresQuery =
        "SELECT id, street_address, city, country, emoji, hours FROM library_locations ORDER BY id FOR UPDATE"

    /// Sets the hours of the location with `id`, now `location`.
    static func updateHours(id: Int64, to location: Location) -> PostgresQuery {
        "UPDATE library_locations SET hours = \(location.hours), json = \(json(location)) WHERE id = \(id)"
    }

    // MARK: - Encoding

    /// The folded search key of `text`, as the in-memory library computes it.
    static func key(_ text: String) -> String {
        String(decoding: SearchKey.fold(text), as: UTF8.self)
    }

    /// A row's JSON, as the in-memory library encodes it.
    static func json(_ record: some JSONRecord) -> String {
        var bytes: [UInt8] = []
        record.appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
