public import LibraryKit

/// What the service serves, indexed: locations by country and books by title.
///
/// Built once at start; every search after that is a lookup.
public struct Library: Sendable {
    /// The locations, searchable by country.
    public let locations: SearchableList<Location>
    /// The books, searchable by title.
    public let catalog: SearchableList<Book>

    /// Indexes `data`.
    public init(_ data: LibraryData) {
        self.locations = SearchableList(data.locations, key: \.country)
        self.catalog = SearchableList(data.books, key: \.title)
    }

    /// The number of distinct countries among the locations.
    public var countryCount: Int { Set(locations.items.map(\.country)).count }
}
