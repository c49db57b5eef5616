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
        LibraryData(
            locations: try builtIn(locationsFile, as: Location.self),
            books: try builtIn(catalogFile, as: Book.self)
        )
    }

    /// The records of the built-in data file `name` (`Resources/Data/<name>`).
    private static func builtIn<Record: DataRecord>(
        _ name: String,
        as type: Record.Type
    ) throws(DataFileError) -> [Record] {
        guard let bytes = EmbeddedResources.bytes("Data/\(name)") else {
            throw DataFileError(file: name, problem: "is not among the built-in data")
        }
        return try DataFileReader.decode(Data(bytes), file: "the built-in \(name)", as: type)
    }
}
