import Courier
import LibraryKit
public import LibrarySearch
public import Logging
import PostgresNIO
import Synchronization

/// A library whose locations and books are in PostgreSQL, shared by every replica that serves
/// it: the same answers as the in-memory `LibraryServer.Library`, from the same folded keys.
///
/// ```swift
/// let library = PostgresLibrary(url: try DatabaseURL("postgres://courier@127.0.0.1/library"), logger: logger)
/// let server = try LibraryServer(store: library, logger: logger)
/// try await server.run(host: "0.0.0.0", port: 8080)  // runs the library's pool and listener too
/// ```
///
/// Each search is one statement: the page (rows in key order, found by a range scan of the
/// key's B-tree), its total and the data's version, all from one snapshot. Totals of a whole
/// list come from a counter the database keeps; totals of a prefix count the matching index
/// entries, never the table.
///
/// Answers are kept in a bounded cache for as long as the data's version stays the same. The
/// version comes from `LISTEN courier_library`: every change announces its new version when it
/// commits, so a replica stops using what it cached as soon as the notification arrives. While
/// the notifications cannot be received (the database is down, say), nothing cached is used:
/// searches go to the database, and fail with `LibraryServer.LibraryStoreError` (a 503) while
/// it cannot be reached — at once while the listener's attempts to reconnect fail, which it
/// makes every 2 seconds at most.
public final class PostgresLibrary: LibraryStore {
    /// How a library uses its database.
    public struct Configuration: Sendable {
        /// Connections in the pool for searches.
        public var maximumConnections: Int
        /// Bytes of answers kept per replica; 0 keeps none.
        public var cacheSize: Int
        /// The longest wait for the database before a search answers 503.
        public var queryTimeout: Duration

        /// The longest wait for a new connection: the query timeout, but at least 5 seconds.
        var connectTimeout: Duration { max(queryTimeout, .seconds(5)) }

        /// 12 connections, 64 MiB of answers, 3 seconds.
        public init(maximumConnections: Int = 12, cacheSize: Int = 64 << 20, queryTimeout: Duration = .seconds(3)) {
            self.maximumConnections = maximumConnections
            self.cacheSize = cacheSize
            self.queryTimeout = queryTimeout
        }
    }

    /// `postgresql`.
    public var mode: String { "postgresql" }

    /// The database's address.
    public let url: DatabaseURL
    let client: PostgresClient
    private let configuration: Configuration
    private let logger: Logger
    /// For postgres-nio's own messages: errors only.
    private let quietLogger: Logger
    private let state: Mutex<State>

    /// What the listener knows, and the answers cached for it.
    private struct State {
        /// The data's version, while notifications arrive; `nil` while they cannot.
        var version: Int64?
        /// Why the last attempt to connect failed; `nil` once one succeeds.
        var unreachable: String?
        var cache: LRUCache<CacheKey, LibraryPage>
        /// Whether ``run()`` has been called.
        var isRunning = false
        /// How to end each search waiting for the database, by number.
        var waiters: [Int: @Sendable (any Error) -> Void] = [:]
        var nextWaiter = 0

        /// The cache's entries, leaving it empty: the caller frees them after the lock.
        mutating func takeCache() -> LRUCache<CacheKey, LibraryPage> {
            var taken = LRUCache<CacheKey, LibraryPage>(costLimit: cache.costLimit)
            swap(&taken, &cache)
            return taken
        }
    }

    /// A search, as cached: the list, the folded prefix and the page asked for.
    private struct CacheKey: Hashable {
        var list: LibraryList
        var prefix: String
        var limit: Int
        var offset: Int
    }

    /// A library on the database at `url`; call ``run()`` (a server's `run` does) to connect.
    public init(url: DatabaseURL, configuration: Configuration = Configuration(), logger: Logger) {
        self.url = url
        self.configuration = configuration
        self.logger = logger
        self.quietLogger = PostgresErrors.quiet(logger)
        var clientConfiguration = url.clientConfiguration(
            maximumConnections: configuration.maximumConnections,
            connectTimeout: configuration.connectTimeout
        )
        // A search the service stopped waiting for stops in the database too, freeing its connection.
        let timeout = configuration.queryTimeout.components
        let milliseconds = timeout.seconds * 1000 + timeout.attoseconds / 1_000_000_000_000_000
        clientConfiguration.options.additionalStartupParameters = [("statement_timeout", String(max(1, milliseconds)))]
        self.client = PostgresClient(configuration: clientConfiguration, backgroundLogger: PostgresErrors.quiet(logger))
        self.state = Mutex(State(version: nil, unreachable: nil, cache: LRUCache(costLimit: configuration.cacheSize)))
    }

    // MARK: - Running

    /// Migrates the database if it is behind, then runs the pool and the change listener until
    /// the task is cancelled.
    public func run() async throws {
        // The pool runs until what uses it has stopped: a request for one of its connections
        // made after it stopped would wait for ever.
        guard
            state.withLock({ state in
                !state.isRunning
                    && {
                        state.isRunning = true
                        return true
                    }()
            })
        else {
            throw LibraryStoreError(reason: "this PostgresLibrary is already running: make one per server")
        }
        let pool = Task { await client.run() }
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await self.listen() }
                try await migrate()
            }
        } catch is CancellationError {
            // Stopped before the schema could be checked (the database was never reached).
        } catch {
            pool.cancel()
            await pool.value
            throw error
        }
        pool.cancel()
        await pool.value
    }

    /// Brings the schema up to date, trying again while the database cannot be reached (the
    /// service answers 503 meanwhile).
    ///
    /// - Throws: ``LibraryDatabaseError/newerSchema(found:known:)``: this replica is too old.
    private func migrate() async throws {
        var delay = Duration.milliseconds(100)
        while true {
            do {
                try await LibrarySchema.migrate(client, logger: logger)
                return
            } catch {
                if let error = PostgresErrors.unwrap(error) as? LibraryDatabaseError { throw error }
                try Task.checkCancellation()
                // A refused login, a missing database or privilege needs a person, not time.
                if let state = PostgresErrors.sqlState(of: error), Self.permanentStates.contains(where: state.hasPrefix)
                {
                    throw LibraryDatabaseError.failed(reason: PostgresErrors.describe(error))
                }
                logger.warning("Cannot check the library database's schema yet: \(PostgresErrors.describe(error))")
            }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    /// How often the listening connection is checked.
    static let heartbeat = Duration.seconds(1)

    /// SQLSTATE classes and codes that waiting will not fix: authorization (28), an unknown
    /// database (3D000), insufficient privilege (42501).
    static let permanentStates = ["28", "3D000", "42501"]

    /// Receives the version of every change until cancelled; reconnects after a failure,
    /// waiting a little longer each time (up to 2 seconds).
    private func listen() async {
        var delay = Duration.milliseconds(100)
        var lost = false
        while !Task.isCancelled {
            do {
                let connection: PostgresConnection
                do {
                    connection = try await PostgresConnection.connect(
                        configuration: try url.connectionConfiguration(connectTimeout: configuration.connectTimeout),
                        id: 0,
                        logger: quietLogger
                    )
                } catch {
                    // Searches fail at once from now on, rather than wait for the pool to give up.
                    let reason = PostgresErrors.describe(error)
                    let (waiting, wasReachable) = state.withLock { state in
                        defer { (state.unreachable, state.waiters) = (reason, [:]) }
                        return (Array(state.waiters.values), state.unreachable == nil)
                    }
                    if wasReachable {
                        logger.warning(
                            "The library database cannot be reached (\(reason)): searches answer 503 until it can."
                        )
                    }
                    for abandon in waiting {
                        abandon(LibraryStoreError(reason: "the database cannot be reached: \(reason)"))
                    }
                    throw error
                }
                if state.withLock({ $0.unreachable.take() }) != nil {
                    logger.notice("The library database can be reached again.")
                }
                do {
                    try await connection.listen(on: LibrarySchema.channel) { notifications in
                        // Listening from here on: the version read now misses no change.
                        update(version: try await Self.version(on: connection, logger: quietLogger))
                        if lost { logger.notice("The library database's notifications are back.") }
                        (delay, lost) = (.milliseconds(100), false)
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for try await notification in notifications {
                                    if let version = Int64(notification.payload) { self.update(version: version) }
                                }
                            }
                            // A connection can die silently (a NAT forgets it, a network splits): a
                            // read each second proves it alive, and would also catch a lost notice.
                            group.addTask {
                                while true {
                                    try await Task.sleep(for: Self.heartbeat)
                                    let version = try await withDeadline(self.configuration.queryTimeout) {
                                        try await Self.version(on: connection, logger: self.quietLogger)
                                    }
                                    self.update(version: version)
                                }
                            }
                            defer { group.cancelAll() }
                            try await group.next()
                        }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if !Task.isCancelled, !lost {
                    logger.warning("Lost the library database's notifications: \(PostgresErrors.describe(error))")
                    lost = true
                }
            }
            let dropped = state.withLock { state in
                state.version = nil
                return state.takeCache()
            }
            _ = consume dropped  // freed here, outside the lock
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    /// A newer version empties the cache; notifications of older ones (a transaction that
    /// committed before the one already seen) change nothing.
    private func update(version: Int64) {
        let dropped = state.withLock { state -> LRUCache<CacheKey, LibraryPage>? in
            guard version > state.version ?? .min else { return nil }
            state.version = version
            return state.takeCache()
        }
        guard dropped != nil else { return }
        _ = consume dropped  // freed here, outside the lock
        logger.info("The library's data is at version \(version).")
    }

    private static func version(on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        var version: Int64 = 0
        for try await value in try await connection.query("SELECT version FROM library_state", logger: logger)
            .decode(Int64.self)
        {
            version = value
        }
        return version
    }

    // MARK: - Searching

    /// One page of `list`, from the cache while the data's version is unchanged, else from
    /// the database.
    public func search(
        _ list: LibraryList,
        prefix: String,
        limit: Int,
        offset: Int
    ) async throws(LibraryStoreError)
        -> LibraryPage
    {
        let key = CacheKey(
            list: list,
            prefix: String(decoding: SearchKey.fold(prefix), as: UTF8.self),
            limit: limit,
            offset: offset
        )
        let (cached, unreachable) = state.withLock { state in
            (state.version == nil ? nil : state.cache.value(for: key), state.unreachable)
        }
        if let cached { return cached }
        if let unreachable { throw LibraryStoreError(reason: "the database cannot be reached: \(unreachable)") }
        let (page, version) = try await query(key)
        state.withLock { state in
            // Kept only if it is what every replica would now answer.
            if version == state.version {
                state.cache.set(page, for: key, cost: page.elements.count + key.prefix.utf8.count + 128)
            }
        }
        return page
    }

    /// The page, its total and the version they were read at, from one snapshot.
    private func query(_ key: CacheKey) async throws(LibraryStoreError) -> (LibraryPage, Int64) {
        let (table, column, counter) =
            switch key.list {
            case .locations: ("library_locations", "country_key", "location_count")
            case .catalog: ("library_books", "title_key", "book_count")
            }
        let pattern = Self.likePattern(prefix: key.prefix)
        // Custom plans see the pattern's value, so its fixed start becomes an index range.
        let statement: PostgresQuery = """
            SELECT s.version,
                CASE WHEN \(key.prefix.isEmpty) THEN s.\(unescaped: counter)
                    ELSE (SELECT count(*) FROM \(unescaped: table) WHERE \(unescaped: column) LIKE \(pattern)) END,
                (SELECT string_agg(page.json, ',' ORDER BY page.key, page.id) FROM (
                    SELECT json, \(unescaped: column) AS key, id FROM \(unescaped: table)
                    WHERE \(unescaped: column) LIKE \(pattern)
                    ORDER BY \(unescaped: column), id LIMIT \(Int64(key.limit)) OFFSET \(Int64(clamping: key.offset))
                ) AS page)
            FROM library_state s
            """
        let row: (Int64, Int64, String?)
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        defer { state.withLock { _ = $0.waiters.removeValue(forKey: waiter) } }
        do {
            // Abandoned as soon as the listener finds the database unreachable: a search that
            // was already waiting for a connection then answers 503 at once too.
            let abandoning = { [self] (abandon: @escaping @Sendable (any Error) -> Void) in
                let unreachable = self.state.withLock { state in
                    if state.unreachable == nil { state.waiters[waiter] = abandon }
                    return state.unreachable
                }
                if let unreachable {
                    abandon(LibraryStoreError(reason: "the database cannot be reached: \(unreachable)"))
                }
            }
            row = try await withDeadline(configuration.queryTimeout, abandoning: abandoning) { [client, quietLogger] in
                var result: (Int64, Int64, String?) = (0, 0, nil)
                for try await values in try await client.query(statement, logger: quietLogger).decode(
                    (Int64, Int64, String?).self
                ) {
                    result = values
                }
                return result
            }
        } catch {
            throw LibraryStoreError(reason: PostgresErrors.describe(error))
        }
        let elements = Array((row.2 ?? "").utf8)
        let total = Int(clamping: row.1)
        return (
            LibraryPage(elements: elements[...], total: total, entityTag: Self.entityTag(elements, total: total)),
            row.0
        )
    }

    /// A strong tag from the page's bytes and its total: replicas give equal pages equal tags.
    static func entityTag(_ elements: [UInt8], total: Int) -> String {
        var hashed = elements
        hashed.append(contentsOf: String(total).utf8)
        return "\"pg" + String(FNV1a.hash(hashed), radix: 16) + "\""
    }

    /// `prefix%`, with LIKE's `%`, `_` and `\` escaped in the prefix.
    static func likePattern(prefix: String) -> String {
        var pattern = ""
        pattern.reserveCapacity(prefix.utf8.count + 1)
        for character in prefix.unicodeScalars {
            if character == "%" || character == "_" || character == "\\" { pattern.unicodeScalars.append("\\") }
            pattern.unicodeScalars.append(character)
        }
        return pattern + "%"
    }

    // MARK: - Health

    /// Reachable with the counts, or unreachable within the query timeout.
    public func health() async -> LibraryHealth {
        if state.withLock({ $0.unreachable != nil }) {
            return LibraryHealth(isReachable: false, locations: nil, books: nil)
        }
        do {
            let counts = try await withDeadline(configuration.queryTimeout) { [client, quietLogger] in
                var counts: (Int64, Int64) = (0, 0)
                for try await values in try await client.query(
                    "SELECT location_count, book_count FROM library_state",
                    logger: quietLogger
                ).decode((Int64, Int64).self) {
                    counts = values
                }
                return counts
            }
            return LibraryHealth(
                isReachable: true,
                locations: Int(clamping: counts.0),
                books: Int(clamping: counts.1),
                version: state.withLock { $0.version }
            )
        } catch {
            return LibraryHealth(isReachable: false, locations: nil, books: nil)
        }
    }
}

/// What `body` returns, or ``DeadlineExceeded`` once `limit` has passed, whichever comes first;
/// `body` is cancelled if it has not finished. The caller never waits longer than `limit`, even
/// for a `body` that ignores cancellation (it is left to end on its own), and is answered at
/// once if it is cancelled itself.
///
/// `abandoning` receives a function that ends the wait at once with the error given to it, for
/// a caller that learns from elsewhere that no answer is coming.
func withDeadline<Result: Sendable>(
    _ limit: Duration,
    abandoning: (@escaping @Sendable (any Error) -> Void) -> Void = { _ in },
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let outcome = Mutex<CheckedContinuation<Result, any Error>?>(nil)
    let tasks = Mutex<[Task<Void, Never>]>([])
    let finish = { @Sendable (result: Swift.Result<Result, any Error>) in
        outcome.withLock { $0.take() }?.resume(with: result)
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
    abandoning { error in finish(.failure(error)) }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.withLock { $0 = continuation }
            let work = Task {
                do {
                    finish(.success(try await body()))
                } catch {
                    finish(.failure(error))
                }
            }
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                finish(.failure(DeadlineExceeded(limit: limit)))
            }
            tasks.withLock { $0 = [work, timer] }
            // Finished already (or cancelled before the tasks existed): stop them now.
            if outcome.withLock({ $0 == nil }) || Task.isCancelled {
                finish(.failure(CancellationError()))
            }
        }
    } onCancel: {
        finish(.failure(CancellationError()))
    }
}

/// The database did not answer in time.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "no answer within \(limit)" }
}
