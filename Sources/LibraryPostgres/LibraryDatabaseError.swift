/// Why a change to a library database failed.
public enum LibraryDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database cannot be reached, or refused the login; the reason is PostgreSQL's or the
    /// network's, without the password.
    case unreachable(reason: String)
    /// A newer Courier migrated the database past the versions this one knows.
    case newerSchema(found: Int, known: Int)
    /// A row to write is invalid, checked as data files are: which field, and what is wrong.
    case invalid(field: String, problem: String)
    /// No location matches the one to change.
    case noSuchLocation(String)
    /// More than one location matches the one to change.
    case ambiguousLocation(String, count: Int)
    /// PostgreSQL refused a statement.
    case failed(reason: String)

    /// What failed and what to do.
    public var description: String {
        switch self {
        case .unreachable(let reason):
            "The library database cannot be reached: \(reason). Check the address, that PostgreSQL runs, and the password."
        case .newerSchema(let found, let known):
            "The library database is at schema version \(found), newer than the \(known) this Courier knows: use a newer Courier."
        case .invalid(let field, let problem):
            "\(field): \(problem)."
        case .noSuchLocation(let description):
            "No location matches \(description): check the city and the street address."
        case .ambiguousLocation(let description, let count):
            "\(count) locations match \(description): give the street address as well."
        case .failed(let reason):
            "The library database refused the change: \(reason)."
        }
    }
}
