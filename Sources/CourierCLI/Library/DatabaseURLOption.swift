import ArgumentParser
import LibraryPostgres

/// Reads `--database` as a PostgreSQL address, a usage error naming what is wrong (never the
/// password).
enum DatabaseURLOption {
    static func parse(_ text: String) throws -> DatabaseURL {
        do {
            return try DatabaseURL(text, environment: CommandContext.environment)
        } catch {
            throw ValidationError("--database: \(error) The password may also come from PGPASSWORD.")
        }
    }

    /// A database failure as a command's failure: unreachable is a network failure, the rest
    /// need the user to change something.
    static func failure(_ error: LibraryDatabaseError) -> CommandFailure {
        switch error {
        case .unreachable: CommandFailure(error.description, status: .network)
        case .noSuchLocation: CommandFailure(error.description, status: .nothingFound)
        case .newerSchema, .invalid, .ambiguousLocation: CommandFailure(error.description, status: .usage)
        case .failed: CommandFailure(error.description, status: .unexpected)
        }
    }
}
