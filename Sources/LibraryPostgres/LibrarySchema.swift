import Logging
import PostgresNIO

/// The tables of a library in PostgreSQL, created and changed by numbered migrations.
///
/// - `library_locations` and `library_books`: each row's fields, its folded search key
///   (computed by Courier, as the in-memory index folds it) and its JSON, encoded once when the
///   row is written. A B-tree on `(key COLLATE "C", id)` makes a prefix search a range scan in
///   byte order, the order of the in-memory index, ties in the order rows were added.
/// - `library_state`: one row with the data's version and the number of rows of each table,
///   kept by statement triggers on every change, which also `NOTIFY courier_library` with the
///   new version: replicas learn of a change when it commits, and totals of a whole list never
///   count rows.
/// - `library_migrations`: which migrations have run.
enum LibrarySchema {
    /// The channel every change is announced on, with the new version as payload.
    static let channel = "courier_library"

    /// The migrations, in order: a database at version N has run the first N.
    static let migrations: [(name: String, statements: [PostgresQuery])] = [
        (
            "locations, books and the change counter",
            [
                """
                CREATE TABLE library_state (
                    id boolean PRIMARY KEY DEFAULT true CHECK (id),
                    version bigint NOT NULL,
                    location_count bigint NOT NULL,
                    book_count bigint NOT NULL
                )
                """,
                "INSERT INTO library_state (version, location_count, book_count) VALUES (1, 0, 0)",
                """
                CREATE TABLE library_locations (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    street_address text NOT NULL,
                    city text NOT NULL,
                    country text NOT NULL,
                    emoji text NOT NULL,
                    hours text NOT NULL,
                    country_key text COLLATE "C" NOT NULL,
                    json text NOT NULL
                )
                """,
                "CREATE INDEX library_locations_country_key ON library_locations (country_key, id)",
                """
                CREATE TABLE library_books (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    title text NOT NULL,
                    author text,
                    year bigint,
                    isbn text,
                    cover_url text,
                    title_key text COLLATE "C" NOT NULL,
                    json text NOT NULL
                )
                """,
                "CREATE INDEX library_books_title_key ON library_books (title_key, id)",
                """
                CREATE FUNCTION library_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    delta bigint := 0;
                    new_version bigint;
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        SELECT count(*) INTO delta FROM changed_rows;
                    ELSIF TG_OP = 'DELETE' THEN
                        SELECT -count(*) INTO delta FROM changed_rows;
                    END IF;
                    IF TG_OP = 'TRUNCATE' THEN
                        UPDATE library_state SET
                            version = version + 1,
                            location_count = CASE WHEN TG_TABLE_NAME = 'library_locations' THEN 0 ELSE location_count END,
                            book_count = CASE WHEN TG_TABLE_NAME = 'library_books' THEN 0 ELSE book_count END
                        RETURNING version INTO new_version;
                    ELSE
                        UPDATE library_state SET
                            version = version + 1,
                            location_count = location_count
                                + CASE WHEN TG_TABLE_NAME = 'library_locations' THEN delta ELSE 0 END,
                            book_count = book_count + CASE WHEN TG_TABLE_NAME = 'library_books' THEN delta ELSE 0 END
                        RETURNING version INTO new_version;
                    END IF;
                    PERFORM pg_notify('courier_library', new_version::text);
                    RETURN NULL;
                END
                $$
                """,
            ] + ["library_locations", "library_books"].flatMap(triggers(on:))
        )
    ]

    /// The statement triggers that keep `library_state` for `table`.
    private static func triggers(on table: String) -> [PostgresQuery] {
        [
            "CREATE TRIGGER \(unescaped: table)_inserted AFTER INSERT ON \(unescaped: table) REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION library_changed()",
            "CREATE TRIGGER \(unescaped: table)_deleted AFTER DELETE ON \(unescaped: table) REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION library_changed()",
            "CREATE TRIGGER \(unescaped: table)_updated AFTER UPDATE ON \(unescaped: table) FOR EACH STATEMENT EXECUTE FUNCTION library_changed()",
            "CREATE TRIGGER \(unescaped: table)_truncated AFTER TRUNCATE ON \(unescaped: table) FOR EACH STATEMENT EXECUTE FUNCTION library_changed()",
        ]
    }

    /// A number of our own for `pg_advisory_xact_lock`: one migration at a time, whoever runs it.
    private static let lockKey: Int64 = 0x436F_7572_6965_7231  // "Courier1"

    /// Runs the migrations `client`'s database lacks, in one transaction, under an advisory
    /// lock so that replicas starting together do not race. A database already up to date is
    /// only read: a role without the right to create tables can serve it.
    ///
    /// - Returns: The schema version after.
    /// - Throws: ``LibraryDatabaseError/newerSchema(found:known:)`` when a newer Courier
    ///   migrated the database, or what PostgreSQL reports.
    @discardableResult
    static func migrate(_ client: PostgresClient, logger: Logger) async throws -> Int {
        let quiet = PostgresErrors.quiet(logger)
        let current = try await client.withConnection { connection in try await version(on: connection, logger: quiet) }
        guard current != migrations.count else { return current }
        guard current < migrations.count else {
            throw LibraryDatabaseError.newerSchema(found: current, known: migrations.count)
        }
        return try await client.withTransaction(logger: quiet) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: quiet)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS library_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                logger: quiet
            )
            // Again under the lock: another replica may have migrated meanwhile.
            let current = try await version(on: connection, logger: quiet)
            guard current <= migrations.count else {
                throw LibraryDatabaseError.newerSchema(found: current, known: migrations.count)
            }
            for (index, migration) in migrations.enumerated().dropFirst(current) {
                for statement in migration.statements {
                    try await connection.query(statement, logger: quiet)
                }
                let version = index + 1
                try await connection.query(
                    "INSERT INTO library_migrations (version, name) VALUES (\(version), \(migration.name))",
                    logger: quiet
                )
                logger.info("Migrated the library database to version \(version): \(migration.name).")
            }
            return migrations.count
        }
    }

    /// The schema version: 0 for a database Courier has not touched.
    private static func version(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var exists = false
        for try await found in try await connection.query(
            "SELECT to_regclass('library_migrations') IS NOT NULL",
            logger: logger
        ).decode(Bool.self) {
            exists = found
        }
        guard exists else { return 0 }
        var current = 0
        for try await version in try await connection.query(
            "SELECT coalesce(max(version), 0) FROM library_migrations",
            logger: logger
        ).decode(Int.self) {
            current = version
        }
        return current
    }
}
