public import LibraryKit

/// What the service serves, indexed in memory: locations by country and books by title.
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

extension Library: LibraryStore {
    /// `memory`.
    public var mode: String { "memory" }

    /// A page of the in-memory list: two binary searches and a slice, never failing.
    public func search(_ list: LibraryList, prefix: String, limit: Int, offset: Int) -> LibraryPage {
        switch list {
        case .locations: locations.page(prefix, limit: limit, offset: offset)
        case .catalog: catalog.page(prefix, limit: limit, offset: offset)
        }
    }

    /// The counts; an in-memory store has nothing to reach.
    public func health() -> LibraryHealth {
        LibraryHealth(isReachable: nil, locations: locations.count, books: catalog.count)
    }

    /// Nothing to run: returns at once.
    public func run() {}
}

extension SearchableList {
    /// A search's page with its entity tag.
    func page(_ prefix: String, limit: Int, offset: Int) -> LibraryPage {
        let result = search(prefix, limit: limit, offset: offset)
        return LibraryPage(
            elements: jsonElements(for: result),
            total: result.total,
            entityTag: entityTag(for: result)
        )
    }
}
