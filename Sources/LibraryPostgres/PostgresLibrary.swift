import Courier
import LibraryKit
public import LibrarySearch
public import Logging
import PostgresNIO
import Synchronization

/// A library whose locations and books are in PostgreSQL, shared by every replica that serves
/// it: the same answers as the in-memory `Library`, from the same folded keys.
///
/// ```swift
/// let library = PostgresLibrary(url: try DatabaseURL("postgres://courier@127.0.0.1/library"), logger: logger)
/// let server = try LibraryServer(store: library, logger: logger)
/// try await server.run(host: "0.0.0.0", port: 8080)  // runs the library's pool and listener too
/// ```
///
/// Each search is one statement (`LibraryQueries.search`): the page, its total and the data's
/// version, all from one snapshot.
///
/// Answers are kept in a bounded cache for as long as the data's version stays the same. The
/// version comes from `LISTEN courier_library` (`ChangeListener`): every change announces its
/// new version when it commits, so a replica stops using what it cached as soon as the
/// notification arrives. While the notifications cannot be received (the database is down,
/// say), nothing cached is used: searches go to the database, and fail with
/// `LibraryStoreError` (a 503) while it cannot be reached — at once while the listener's
/// attempts to reconnect fail, which it makes every 2 seconds at most. The rules are those of
/// `SearchCache`.
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
    private let cache: Mutex<SearchCache>
    /// Whether ``run()`` has been called.
    private let isRunning = Atomic<Bool>(false)

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
        self.cache = Mutex(SearchCache(costLimit: configuration.cacheSize))
    }

    // MARK: - Running

    /// Migrates the database if it is behind, then runs the pool and the change listener until
    /// the task is cancelled.
    public func run() async throws {
        // The pool runs until what uses it has stopped: a request for one of its connections
        // made after it stopped would wait for ever.
        guard !isRunning.exchange(true, ordering: .relaxed) else {
            throw LibraryStoreError(reason: "this PostgresLibrary is already running: make one per server")
        }
        let listener = ChangeListener(
            url: url,
            connectTimeout: configuration.connectTimeout,
            queryTimeout: configuration.queryTimeout,
            logger: logger,
            quietLogger: quietLogger
        )
        let pool = Task { await client.run() }
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await listener.run { event in self.handle(event) } }
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

    /// SQLSTATE classes and codes that waiting will not fix: authorization (28), an unknown
    /// database (3D000), insufficient privilege (42501).
    static let permanentStates = ["28", "3D000", "42501"]

    /// Applies what the listener learnt to the cache, then does what the cache says, outside
    /// the lock: dropped answers are freed and abandoned searches resumed there.
    private func handle(_ event: ChangeListener.Event) {
        switch event {
        case .unreachable(let reason):
            let action = cache.withLock { $0.connectionFailed(reason: reason) }
            if action.isNews {
                logger.warning("The library database cannot be reached (\(reason)): searches answer 503 until it can.")
            }
            for abandon in action.abandon {
                abandon(LibraryStoreError(reason: "the database cannot be reached: \(reason)"))
            }
        case .connected:
            if cache.withLock({ $0.connected() }) { logger.notice("The library database can be reached again.") }
        case .version(let version):
            let dropped = cache.withLock { $0.versionArrived(version) }
            guard dropped != nil else { return }
            _ = consume dropped
            logger.info("The library's data is at version \(version).")
        case .lost:
            let dropped = cache.withLock { $0.notificationsLost() }
            _ = consume dropped
        }
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
        let key = SearchCache.Key(list: list, prefix: LibraryQueries.key(prefix), limit: limit, offset: offset)
        switch cache.withLock({ $0.lookup(key) }) {
        case .answer(let page): return page
        case .fail(let reason): throw LibraryStoreError(reason: "the database cannot be reached: \(reason)")
        case .query: break
        }
        let (page, version) = try await query(key)
        cache.withLock { $0.store(page, for: key, readAt: version) }
        return page
    }

    /// The page, its total and the version they were read at, from one snapshot.
    private func query(_ key: SearchCache.Key) async throws(LibraryStoreError) -> (LibraryPage, Int64) {
        let statement = LibraryQueries.search(key.list, prefix: key.prefix, limit: key.limit, offset: key.offset)
        let row: (Int64, Int64, String?)
        let waiter = cache.withLock { $0.newWaiter() }
        defer { cache.withLock { $0.endWait(waiter) } }
        do {
            // Abandoned as soon as the listener finds the database unreachable: a search that
            // was already waiting for a connection then answers 503 at once too.
            let abandoning = { [self] (abandon: @escaping SearchCache.Abandon) in
                if let unreachable = self.cache.withLock({ $0.wait(waiter, abandon: abandon) }) {
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

    // MARK: - Health

    /// Reachable with the counts, or unreachable within the query timeout.
    public func health() async -> LibraryHealth {
        if cache.withLock({ $0.unreachable != nil }) {
            return LibraryHealth(isReachable: false, locations: nil, books: nil)
        }
        do {
            let counts = try await withDeadline(configuration.queryTimeout) { [client, quietLogger] in
                var counts: (Int64, Int64) = (0, 0)
                for try await values in try await client.query(LibraryQueries.counts, logger: quietLogger).decode(
                    (Int64, Int64).self
                ) {
                    counts = values
                }
                return counts
            }
            return LibraryHealth(
                isReachable: true,
                locations: Int(clamping: counts.0),
                books: Int(clamping: counts.1),
                version: cache.withLock { $0.version }
            )
        } catch {
            return LibraryHealth(isReachable: false, locations: nil, books: nil)
        }
    }
}
