/// One page of search results and the number of results in all.
public struct Page<Item: Sendable>: Sendable {
    /// The results on this page.
    public var items: [Item]
    /// How many results the search has in all, on every page.
    public var total: Int
    /// The position of the first item on this page among all results.
    public var offset: Int

    /// Creates a page.
    public init(items: [Item], total: Int, offset: Int) {
        self.items = items
        self.total = total
        self.offset = offset
    }

    /// Whether results follow this page.
    public var hasMore: Bool { offset + items.count < total }
}

extension Page: Equatable where Item: Equatable {}
