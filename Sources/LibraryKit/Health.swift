/// What `GET /health` reports: the service is up, and how much it serves.
public struct Health: Codable, Sendable, Hashable {
    /// "ok" while the service answers.
    public var status: String
    /// The number of library locations served.
    public var locations: Int
    /// The number of books in the catalog.
    public var books: Int

    /// Creates a health report.
    public init(status: String, locations: Int, books: Int) {
        self.status = status
        self.locations = locations
        self.books = books
    }
}
