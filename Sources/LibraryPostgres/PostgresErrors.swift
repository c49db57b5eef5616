import PostgresNIO

/// PostgreSQL's failures in words a log or a person can use, without the query's values or
/// the password (postgres-nio's own description says nothing, on purpose).
enum PostgresErrors {
    /// "PostgreSQL: relation "x" does not exist (42P01)", "connection refused", …
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (\($0))" } ?? ""
            return "PostgreSQL: \(message)\(state)"
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// Whether PostgreSQL itself answered, as opposed to the network or the login failing.
    static func isFromServer(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] != nil
    }
}
