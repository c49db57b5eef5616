/// What `GET /health` reports: whether the service can answer, from what, and how much it serves.
///
/// ```json
/// {"status": "ok", "mode": "postgresql", "database": "reachable", "locations": 98, "books": 1236, "version": 7}
/// ```
public struct Health: Codable, Sendable, Hashable {
    /// "ok" while the service can answer searches; "unavailable" (with status 503) while its
    /// database cannot be reached.
    public var status: String
    /// Where the data lives: "memory" (one process) or "postgresql" (shared by replicas);
    /// absent from services older than replicas.
    public var mode: String?
    /// "reachable" or "unreachable" for a service on a database; absent in memory mode.
    public var database: String?
    /// The number of library locations served; absent when the database cannot be reached.
    public var locations: Int?
    /// The number of books in the catalog; absent when the database cannot be reached.
    public var books: Int?
    /// The version of the data a replica on a database answers from: replicas that show the
    /// same version give the same answers. Absent in memory mode and while not known.
    public var version: Int?

    /// Creates a health report.
    public init(
        status: String,
        mode: String? = nil,
        database: String? = nil,
        locations: Int?,
        books: Int?,
        version: Int? = nil
    ) {
        self.status = status
        self.mode = mode
        self.database = database
        self.locations = locations
        self.books = books
        self.version = version
    }
}
