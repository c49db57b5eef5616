import Logging
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

    /// `logger` for postgres-nio's own messages: errors only. Its warnings (a lease asked for
    /// while the pool is starting) are not the user's concern; Courier logs what matters.
    static func quiet(_ logger: Logger) -> Logger {
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .error)
        return quiet
    }

    /// Whether PostgreSQL itself answered, as opposed to the network or the login failing.
    static func isFromServer(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] != nil
    }
}
