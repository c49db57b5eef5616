import Logging
import PostgresNIO

/// PostgreSQL's failures in words a log or a person can use, without the query's values or
/// the password (postgres-nio's own description says nothing, on purpose).
enum PostgresErrors {
    /// "PostgreSQL: relation "x" does not exist (42P01)", "connection refused", …
    static func describe(_ error: any Error) -> String {
        let error = unwrap(error)
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

    /// PostgreSQL's SQLSTATE for `error`, when PostgreSQL itself answered.
    static func sqlState(of error: any Error) -> String? {
        (unwrap(error) as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Whether PostgreSQL itself answered, as opposed to the network or the login failing.
    static func isFromServer(_ error: any Error) -> Bool {
        sqlState(of: error) != nil
    }

    /// What failed inside a transaction, rather than postgres-nio's wrapper around it.
    static func unwrap(_ error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError else { return error }
        return transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? transaction
            .rollbackError
            ?? error
    }
}
