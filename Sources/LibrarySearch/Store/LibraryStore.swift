/// Where the library service's data lives: the in-memory ``Library`` of one process, or a
/// database that many replicas share.
///
/// Every store answers with the same matching rules: keys folded by the same rule (case,
/// accents and width folded away), matches in key order and then in the order the items were
/// added, the total of every match with each page.
public protocol LibraryStore: Sendable {
    /// What `/health` calls this kind of store: `memory`, `postgresql`.
    var mode: String { get }

    /// The page from `offset` (at most `limit` items) of the items of `list` whose key — a
    /// location's country, a book's title — starts with `prefix`, folded.
    ///
    /// - Throws: ``LibraryStoreError`` when the data cannot be reached; the service answers 503.
    func search(
        _ list: LibraryList,
        prefix: String,
        limit: Int,
        offset: Int
    ) async throws(LibraryStoreError)
        -> LibraryPage

    /// Whether the data can be reached, and how much there is.
    func health() async -> LibraryHealth

    /// Keeps what the store needs running (connections, change notifications) until the task
    /// is cancelled or the service shuts down gracefully.
    func run() async throws
}

/// The two lists the service searches.
public enum LibraryList: String, Sendable, Hashable, CaseIterable {
    /// Libraries, by country.
    case locations
    /// Books, by title.
    case catalog
}

/// One page of a search, encoded.
public struct LibraryPage: Sendable, Hashable {
    /// The page's items as JSON objects separated by commas: a JSON array without its brackets.
    public var elements: ArraySlice<UInt8>
    /// How many items match, on every page.
    public var total: Int
    /// A strong entity tag (quotes included) that changes whenever the page's bytes or total do.
    public var entityTag: String

    /// Creates a page.
    public init(elements: ArraySlice<UInt8>, total: Int, entityTag: String) {
        self.elements = elements
        self.total = total
        self.entityTag = entityTag
    }
}

/// What a store reports to `/health`.
public struct LibraryHealth: Sendable, Hashable {
    /// Whether the data can be reached: `nil` for a store that holds it in memory.
    public var isReachable: Bool?
    /// The number of locations, when known.
    public var locations: Int?
    /// The number of books, when known.
    public var books: Int?
    /// The version of the data this replica answers from, for a store whose data changes; the
    /// same on every replica that has seen the same changes.
    public var version: Int64?

    /// Creates a report.
    public init(isReachable: Bool?, locations: Int?, books: Int?, version: Int64? = nil) {
        self.isReachable = isReachable
        self.locations = locations
        self.books = books
        self.version = version
    }
}

/// The store's data cannot be reached now: the service answers 503 and tries again with the
/// next request.
public struct LibraryStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, for the log: never shown to clients, and never with credentials.
    public var reason: String

    /// Creates the error.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
