public import Foundation
public import LibraryKit

/// The locations and books a library service serves, as read from `locations.json` and
/// `catalog.json`.
///
/// ```swift
/// let data = try LibraryData.load(from: URL(fileURLWithPath: "data"))
/// let library = Library(data)
/// ```
public struct LibraryData: Sendable {
    /// The file name of the locations, in a data directory.
    public static let locationsFile = "locations.json"
    /// The file name of the books, in a data directory.
    public static let catalogFile = "catalog.json"

    /// The library locations, in the file's order.
    public var locations: [Location]
    /// The books, in the file's order.
    public var books: [Book]

    /// Creates a data set.
    public init(locations: [Location], books: [Book]) {
        self.locations = locations
        self.books = books
    }

    // MARK: - Loading

    /// Reads and checks `locations.json` and `catalog.json` in `directory`.
    ///
    /// - Throws: ``DataFileError`` naming the file, the line and column, and what is wrong:
    ///   a missing file, text that is not JSON, a value of the wrong type, a missing or empty
    ///   field, an invalid ISBN or cover URL.
    public static func load(from directory: URL) throws(DataFileError) -> LibraryData {
        LibraryData(
            locations: try DataFileReader.read(directory.appendingPathComponent(locationsFile), as: Location.self),
            books: try DataFileReader.read(directory.appendingPathComponent(catalogFile), as: Book.self)
        )
    }

    /// The data set built into `courier serve`: libraries in more than 40 countries and a
    /// catalog of classic books.
    public static func embedded() throws(DataFileError) -> LibraryData {
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("Data") else {
            throw DataFileError(file: "Data", problem: "the built-in data is missing from the LibraryServer bundle")
        }
        return try load(from: directory)
    }
}
