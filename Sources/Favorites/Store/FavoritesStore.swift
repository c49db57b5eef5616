public import Foundation
import GRDB

/// Family members, their favourite movies and the movies' ratings, in one SQLite file.
///
/// The file is opened in WAL mode through a GRDB `DatabasePool`: several processes may read
/// and write it at once (a writer waits up to ``busyTimeout`` for another), and every method
/// that changes something commits before it returns, so a process killed afterwards loses
/// nothing it reported saved.
///
/// ```swift
/// let store = try FavoritesStore(at: FavoritesStore.defaultLocation())
/// try await store.addMember("Anna")
/// let added = try await store.addFavorite("Dune", for: "Anna")   // rating pending
/// try await store.recordRating(of: added.favorite.movieID, tmdbID: 438631, popularity: 138.3)
/// ```
public struct FavoritesStore: Sendable {
    /// How long a write waits for another process's write to finish.
    public static let busyTimeout: Duration = .seconds(10)

    /// The database file.
    public let location: URL
    let pool: DatabasePool

    /// Opens the database at `location`, creating it and its directory if needed and bringing
    /// its tables up to date.
    ///
    /// - Throws: ``FavoritesError/cannotOpen(path:reason:)`` when the file cannot be created or
    ///   opened, is not a database, or was written by a newer Courier.
    public init(at location: URL) throws(FavoritesError) {
        self.location = location
        do {
            try FileManager.default.createDirectory(
                at: location.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            var configuration = Configuration()
            configuration.busyMode = .timeout(Self.busyTimeout.timeInterval)
            configuration.label = "favorites"
            pool = try DatabasePool(path: location.path, configuration: configuration)
            let migrator = FavoritesSchema.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                throw FavoritesError.cannotOpen(
                    path: location.path,
                    reason: "it was written by a newer version of Courier; use that version, or a newer one"
                )
            }
            try migrator.migrate(pool)
        } catch let error as FavoritesError {
            throw error
        } catch {
            throw .cannotOpen(path: location.path, reason: Self.reason(error))
        }
    }

    /// `$XDG_DATA_HOME/courier/favorites.sqlite`, else `~/.local/share/courier/favorites.sqlite`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share")
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        }
        return base.appendingPathComponent("courier/favorites.sqlite")
    }

    // MARK: - Family

    /// Adds someone to the family.
    ///
    /// - Throws: ``FavoritesError/blankName``, ``FavoritesError/memberExists(_:)``.
    @discardableResult
    public func addMember(_ name: String, at date: Date = Date()) async throws(FavoritesError) -> FamilyMember {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .blankName }
        let key = MatchKey(name).description
        return try await write { db in
            if let existing = try String.fetchOne(
                db,
                sql: "SELECT name FROM member WHERE name_key = ?",
                arguments: [key]
            ) {
                throw FavoritesError.memberExists(existing)
            }
            try db.execute(
                sql: "INSERT INTO member (name, name_key, added_at) VALUES (?, ?, ?)",
                arguments: [name, key, date]
            )
            return FamilyMember(id: db.lastInsertedRowID, name: name, addedAt: date)
        }
    }

    /// Everyone in the family, by name, with how many favourites each has.
    public func members() async throws(FavoritesError) -> [FamilyMember] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT member.id, member.name, member.added_at, COUNT(favorite.movie_id) AS favorites
                    FROM member LEFT JOIN favorite ON favorite.member_id = member.id
                    GROUP BY member.id ORDER BY member.name_key
                    """
            ).map { row in
                FamilyMember(
                    id: row["id"],
                    name: row["name"],
                    addedAt: row["added_at"],
                    favoriteCount: row["favorites"]
                )
            }
        }
    }

    /// Removes someone and their favourites; movies nobody likes any more go too. Returns the
    /// member as they were, with how many favourites they had.
    ///
    /// - Throws: ``FavoritesError/unknownMember(_:known:)``.
    @discardableResult
    public func removeMember(_ name: String) async throws(FavoritesError) -> FamilyMember {
        try await write { db in
            var member = try Self.member(named: name, in: db)
            member.favoriteCount =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM favorite WHERE member_id = ?", arguments: [member.id])
                ?? 0
            try db.execute(sql: "DELETE FROM member WHERE id = ?", arguments: [member.id])
            try Self.deleteUnlovedMovies(db)
            return member
        }
    }

    // MARK: - Favourites

    /// What ``addFavorite(_:for:at:)`` did.
    public struct Addition: Sendable, Hashable {
        /// The favourite as it is now stored.
        public var favorite: FavoriteMovie
        /// Whether the member already had this movie among their favourites.
        public var wasAlreadyFavorite: Bool
    }

    /// Adds `title` to `member`'s favourites and commits, before any lookup: the movie is
    /// saved with its rating pending. A title another member already likes (ignoring case,
    /// accents and spacing) is the same movie, with the rating it already has.
    ///
    /// - Throws: ``FavoritesError/blankTitle``, ``FavoritesError/unknownMember(_:known:)``.
    @discardableResult
    public func addFavorite(
        _ title: String,
        for member: String,
        at date: Date = Date()
    ) async throws(FavoritesError) -> Addition {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw .blankTitle }
        let key = MatchKey(title).description
        return try await write { db in
            let owner = try Self.member(named: member, in: db)
            let movieID: Int64
            if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM movie WHERE title_key = ?", arguments: [key])
            {
                movieID = existing
            } else {
                try db.execute(
                    sql: "INSERT INTO movie (title, title_key, added_at) VALUES (?, ?, ?)",
                    arguments: [title, key, date]
                )
                movieID = db.lastInsertedRowID
            }
            try db.execute(
                sql: "INSERT OR IGNORE INTO favorite (member_id, movie_id, added_at) VALUES (?, ?, ?)",
                arguments: [owner.id, movieID, date]
            )
            let wasAlreadyFavorite = db.changesCount == 0
            guard let favorite = try Self.favorites(in: db, memberID: owner.id, movieID: movieID).first else {
                throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "the new favourite cannot be read back")
            }
            return Addition(favorite: favorite, wasAlreadyFavorite: wasAlreadyFavorite)
        }
    }

    /// Takes `title` off `member`'s favourites; the movie goes too when nobody else likes it.
    ///
    /// - Throws: ``FavoritesError/unknownMember(_:known:)``, ``FavoritesError/notAFavorite(title:member:)``.
    public func removeFavorite(_ title: String, for member: String) async throws(FavoritesError) {
        let key = MatchKey(title).description
        try await write { db in
            let owner = try Self.member(named: member, in: db)
            try db.execute(
                sql:
                    "DELETE FROM favorite WHERE member_id = ? AND movie_id = (SELECT id FROM movie WHERE title_key = ?)",
                arguments: [owner.id, key]
            )
            guard db.changesCount > 0 else { throw FavoritesError.notAFavorite(title: title, member: owner.name) }
            try Self.deleteUnlovedMovies(db)
        }
    }

    /// Every favourite, or one member's, ordered by member then title.
    ///
    /// - Throws: ``FavoritesError/unknownMember(_:known:)`` when `member` names nobody.
    public func favorites(of member: String? = nil) async throws(FavoritesError) -> [FavoriteMovie] {
        try await read { db in try Self.favorites(of: member, in: db) }
    }

    // MARK: - Ratings

    /// Movies whose rating is pending (never looked up, or the last lookup failed without a
    /// rating) or older than `staleAfter`, oldest first.
    public func moviesNeedingRating(
        staleAfter: Duration,
        now: Date = Date()
    ) async throws(FavoritesError) -> [Movie] {
        let cutoff = now.addingTimeInterval(-staleAfter.timeInterval)
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    \(Self.selectMovies)
                    WHERE popularity IS NULL OR fetched_at IS NULL OR fetched_at < ?
                    ORDER BY fetched_at IS NOT NULL, fetched_at, id
                    """,
                arguments: [cutoff]
            ).map(Self.movie)
        }
    }

    /// One movie, or `nil` when it is gone (its last fan removed it).
    public func movie(id: Int64) async throws(FavoritesError) -> Movie? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: "\(Self.selectMovies) WHERE id = ?",
                arguments: [id]
            ).map(Self.movie)
        }
    }

    /// Writes a looked-up rating back in its own transaction and clears any recorded error.
    /// Returns `false` when the movie was removed meanwhile.
    @discardableResult
    public func recordRating(
        of movieID: Int64,
        tmdbID: Int,
        popularity: Double,
        at date: Date = Date()
    ) async throws(FavoritesError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE movie SET tmdb_id = ?, popularity = ?, fetched_at = ?, last_error = NULL WHERE id = ?",
                arguments: [tmdbID, popularity, date, movieID]
            )
            return db.changesCount > 0
        }
    }

    /// Records why a lookup failed; an earlier rating stays. Returns `false` when the movie
    /// was removed meanwhile.
    @discardableResult
    public func recordFailure(of movieID: Int64, reason: String) async throws(FavoritesError) -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE movie SET last_error = ? WHERE id = ?", arguments: [reason, movieID])
            return db.changesCount > 0
        }
    }

    /// Runs SQLite's own check of the file: `["ok"]` when it is sound.
    public func integrityCheck() async throws(FavoritesError) -> [String] {
        try await read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    // MARK: - Queries shared by methods and observation

    static func favorites(of member: String?, in db: Database) throws -> [FavoriteMovie] {
        guard let member else { return try favorites(in: db) }
        return try favorites(in: db, memberID: try Self.member(named: member, in: db).id)
    }

    static func favorites(in db: Database, memberID: Int64? = nil, movieID: Int64? = nil) throws -> [FavoriteMovie] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let memberID {
            conditions.append("member.id = ?")
            arguments += [memberID]
        }
        if let movieID {
            conditions.append("movie.id = ?")
            arguments += [movieID]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try Row.fetchAll(
            db,
            sql: """
                SELECT member.name AS member, movie.id AS movie_id, movie.title, movie.tmdb_id, movie.popularity,
                       movie.fetched_at, movie.last_error, favorite.added_at
                FROM favorite
                JOIN member ON member.id = favorite.member_id
                JOIN movie ON movie.id = favorite.movie_id
                \(filter)
                ORDER BY member.name_key, movie.title_key
                """,
            arguments: arguments
        ).map { row in
            // By position, in the SELECT's order: a lookup by name compares names case-insensitively.
            FavoriteMovie(
                member: row[0],
                movieID: row[1],
                title: row[2],
                tmdbID: row[3],
                popularity: row[4],
                fetchedAt: row[5],
                lastError: row[6],
                addedAt: row[7]
            )
        }
    }

    static func member(named name: String, in db: Database) throws -> FamilyMember {
        let key = MatchKey(name).description
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT id, name, added_at FROM member WHERE name_key = ?",
                arguments: [key]
            )
        else {
            let known = try String.fetchAll(db, sql: "SELECT name FROM member ORDER BY name_key")
            throw FavoritesError.unknownMember(name, known: known)
        }
        return FamilyMember(id: row["id"], name: row["name"], addedAt: row["added_at"])
    }

    /// The columns ``movie(_:)`` reads, in its order.
    private static let selectMovies = "SELECT id, title, tmdb_id, popularity, fetched_at, last_error FROM movie"

    private static func movie(_ row: Row) -> Movie {
        Movie(
            id: row["id"],
            title: row["title"],
            tmdbID: row["tmdb_id"],
            popularity: row["popularity"],
            fetchedAt: row["fetched_at"],
            lastError: row["last_error"]
        )
    }

    private static func deleteUnlovedMovies(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM movie WHERE id NOT IN (SELECT movie_id FROM favorite)")
    }

    // MARK: - Access

    func read<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(FavoritesError) -> Value {
        do {
            return try await pool.read(body)
        } catch {
            throw mapped(error)
        }
    }

    func write<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(FavoritesError) -> Value {
        do {
            return try await pool.write(body)
        } catch {
            throw mapped(error)
        }
    }

    private func mapped(_ error: any Error) -> FavoritesError {
        if let error = error as? FavoritesError { return error }
        return .database(path: location.path, reason: Self.reason(error))
    }

    /// SQLite's explanation without GRDB's decoration of the statement.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        if let error = error as? CocoaError, let path = error.filePath {
            return "\(path): \(error.localizedDescription)"
        }
        return "\(error)"
    }
}
