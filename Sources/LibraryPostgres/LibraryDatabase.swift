import Foundation
public import LibraryKit
public import LibrarySearch
public import Logging
import NIOCore
import PostgresNIO

/// Changes to a library in PostgreSQL: a whole import, one book, one location added, closed or
/// given new hours. Every
/// change is one transaction; replicas see it within a second of its commit.
///
/// ```swift
/// try await LibraryDatabase.withDatabase(url: url, logger: logger) { database in
///     try await database.importData(try LibraryData.load(from: directory))
///     try await database.addBook(Book(title: "Beowulf"))
/// }
/// ```
///
/// Rows are checked as data files are, and their search keys and JSON are computed here, by
/// the rules the in-memory library uses: write through this type, not with SQL by hand.
public struct LibraryDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// Connects to `url` (waiting at most `connectTimeout` for a connection), brings its schema
    /// up to date, runs `body`, and disconnects.
    ///
    /// - Throws: ``LibraryDatabaseError`` for an unreachable database or a schema newer than
    ///   this Courier's; what `body` throws.
    public static func withDatabase<Result: Sendable>(
        url: DatabaseURL,
        logger: Logger,
        connectTimeout: Duration = .seconds(10),
        _ body: @Sendable (LibraryDatabase) async throws -> Result
    ) async throws -> Result {
        // One connection first, for PostgreSQL's own reason when it cannot be had (refused,
        // unknown database, wrong password): the pool would only report that it gave up.
        let quiet = PostgresErrors.quiet(logger)
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try url.connectionConfiguration(connectTimeout: connectTimeout),
                id: 0,
                logger: quiet
            )
            try? await connection.close()
        } catch {
            throw LibraryDatabaseError.unreachable(reason: PostgresErrors.describe(error))
        }
        let client = PostgresClient(
            configuration: url.clientConfiguration(maximumConnections: 2, connectTimeout: connectTimeout),
            backgroundLogger: quiet
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                try await LibrarySchema.migrate(client, logger: logger)
            } catch {
                let error = PostgresErrors.unwrap(error)
                if let error = error as? LibraryDatabaseError { throw error }
                let reason = PostgresErrors.describe(error)
                throw PostgresErrors.isFromServer(error)
                    ? LibraryDatabaseError.failed(reason: reason) : LibraryDatabaseError.unreachable(reason: reason)
            }
            return try await body(LibraryDatabase(client: client, logger: quiet))
        }
    }

    // MARK: - Import

    /// What an import wrote.
    public struct ImportSummary: Sendable, Hashable {
        /// Locations written.
        public var locations: Int
        /// Books written.
        public var books: Int
    }

    /// Replaces every location and book with `data`'s, in one transaction: searches keep
    /// answering from the old data until it commits. Rows go in with `COPY`; the tables are
    /// vacuumed and analysed afterwards so that totals come from the index alone.
    ///
    /// - Throws: ``LibraryDatabaseError``.
    @discardableResult
    public func importData(_ data: LibraryData) async throws(LibraryDatabaseError) -> ImportSummary {
        for (index, location) in data.locations.enumerated() {
            if let (field, problem) = location.problem() {
                throw .invalid(field: "locations[\(index)].\(field)", problem: problem)
            }
        }
        for (index, book) in data.books.enumerated() {
            if let (field, problem) = book.problem() {
                throw .invalid(field: "books[\(index)].\(field)", problem: problem)
            }
        }
        try await changing {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(LibraryQueries.deleteLocations, logger: logger)
                try await connection.query(LibraryQueries.deleteBooks, logger: logger)
                let (locations, books) = (LibraryQueries.locationCopy, LibraryQueries.bookCopy)
                try await connection.copyFrom(table: locations.table, columns: locations.columns, logger: logger) {
                    writer in
                    try await CopyText.write(data.locations, to: writer, encode: LibraryQueries.locationRow)
                }
                try await connection.copyFrom(table: books.table, columns: books.columns, logger: logger) { writer in
                    try await CopyText.write(data.books, to: writer, encode: LibraryQueries.bookRow)
                }
            }
            for statement in LibraryQueries.analyze { try await client.query(statement, logger: logger) }
        }
        return ImportSummary(locations: data.locations.count, books: data.books.count)
    }

    // MARK: - Single rows

    /// Adds one book.
    ///
    /// - Throws: ``LibraryDatabaseError/invalid(field:problem:)`` for an empty title, an
    ///   invalid ISBN or cover URL, as a data file would be refused.
    public func addBook(_ book: Book) async throws(LibraryDatabaseError) {
        if let (field, problem) = book.problem() { throw .invalid(field: field, problem: problem) }
        _ = try await changing { try await client.query(LibraryQueries.insertBook(book), logger: logger) }
    }

    /// Adds one location.
    ///
    /// - Throws: ``LibraryDatabaseError/invalid(field:problem:)`` for an empty country or city,
    ///   a country too long to index, or a NUL character, as a data file's location would be refused.
    public func addLocation(_ location: Location) async throws(LibraryDatabaseError) {
        if let (field, problem) = location.problem() { throw .invalid(field: field, problem: problem) }
        _ = try await changing { try await client.query(LibraryQueries.insertLocation(location), logger: logger) }
    }

    /// Removes the location in `city` (case and accents ignored), and at `streetAddress` when the
    /// city has more than one: the library has closed.
    ///
    /// - Returns: The location removed.
    /// - Throws: ``LibraryDatabaseError/noSuchLocation(_:)`` or
    ///   ``LibraryDatabaseError/ambiguousLocation(_:count:)`` unless exactly one matches.
    @discardableResult
    public func closeLocation(city: String, streetAddress: String? = nil) async throws(LibraryDatabaseError) -> Location
    {
        try await changingLocation(city: city, streetAddress: streetAddress) { connection, id, location in
            try await connection.query(LibraryQueries.deleteLocation(id: id), logger: logger)
            return location
        }
    }

    /// Sets the opening hours of the location in `city` (case and accents ignored), and at
    /// `streetAddress` when the city has more than one.
    ///
    /// - Returns: The location as it now is.
    /// - Throws: ``LibraryDatabaseError/noSuchLocation(_:)`` or
    ///   ``LibraryDatabaseError/ambiguousLocation(_:count:)`` unless exactly one matches.
    @discardableResult
    public func setHours(
        _ hours: String,
        city: String,
        streetAddress: String? = nil
    ) async throws(LibraryDatabaseError)
        -> Location
    {
        guard !hours.allSatisfy(\.isWhitespace) else { throw .invalid(field: "hours", problem: "the hours are empty") }
        guard !hours.utf8.contains(0) else {
            throw .invalid(field: "hours", problem: "contains a NUL character (\\u0000): remove it")
        }
        return try await changingLocation(city: city, streetAddress: streetAddress) { connection, id, location in
            var changed = location
            changed.hours = hours
            try await connection.query(LibraryQueries.updateHours(id: id, to: changed), logger: logger)
            return changed
        }
    }

    /// Runs `change` on the one location in `city` (and at `streetAddress`), in a transaction
    /// with the rows locked: an import in between cannot leave the change with nothing to change.
    private func changingLocation(
        city: String,
        streetAddress: String?,
        _ change: (PostgresConnection, Int64, Location) async throws -> Location
    ) async throws(LibraryDatabaseError) -> Location {
        let described = streetAddress.map { "\"\($0)\" in \"\(city)\"" } ?? "\"\(city)\""
        let (cityKey, streetKey) = (LibraryQueries.key(city), streetAddress.map(LibraryQueries.key))
        return try await changing {
            try await client.withTransaction(logger: logger) { connection in
                var found: [(Int64, Location)] = []
                let rows = try await connection.query(LibraryQueries.locationsForUpdate, logger: logger)
                for try await (id, street, rowCity, country, emoji, rowHours) in rows.decode(
                    (Int64, String, String, String, String, String).self
                )
                where LibraryQueries.key(rowCity) == cityKey
                    && (streetKey == nil || LibraryQueries.key(street) == streetKey)
                {
                    found.append(
                        (
                            id,
                            Location(
                                streetAddress: street,
                                city: rowCity,
                                country: country,
                                emoji: emoji,
                                hours: rowHours
                            )
                        )
                    )
                }
                guard let (id, location) = found.first else { throw LibraryDatabaseError.noSuchLocation(described) }
                guard found.count == 1 else {
                    throw LibraryDatabaseError.ambiguousLocation(described, count: found.count)
                }
                return try await change(connection, id, location)
            }
        }
    }

    // MARK: - Failures

    /// Runs `body`, turning PostgreSQL's failures into ``LibraryDatabaseError``.
    private func changing<Result>(_ body: () async throws -> Result) async throws(LibraryDatabaseError) -> Result {
        try await withFailures(body)
    }

    private func withFailures<Result>(_ body: () async throws -> Result) async throws(LibraryDatabaseError) -> Result {
        do {
            return try await body()
        } catch {
            let error = PostgresErrors.unwrap(error)
            if let error = error as? LibraryDatabaseError { throw error }
            let reason = PostgresErrors.describe(error)
            throw PostgresErrors.isFromServer(error) ? .failed(reason: reason) : .unreachable(reason: reason)
        }
    }
}
