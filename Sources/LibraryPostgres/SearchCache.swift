import Courier
import LibrarySearch

/// What one replica knows of its database, and the answers it may reuse: a value type whose
/// every change returns what the library must then do, so that the rules can be read and
/// tested without a database (as AsyncHTTPClient's `Transaction.StateMachine`).
///
/// The library keeps it under a lock and acts on the returned actions after the lock is
/// released: resuming waiters and freeing a dropped cache never happen while it is held.
///
/// The rules:
/// - answers are reused only while the change listener receives notifications, and only
///   those read at the version it last heard of;
/// - a newer version empties the cache; an older one (a transaction that committed before the
///   one already seen) changes nothing;
/// - while the database cannot be reached, searches fail at once, including those already
///   waiting for a connection.
struct SearchCache {
    /// A search, as cached: the list, the folded prefix and the page asked for.
    struct Key: Hashable, Sendable {
        var list: LibraryList
        var prefix: String
        var limit: Int
        var offset: Int
    }

    /// Ends a search that waits for the database, with the error given.
    typealias Abandon = @Sendable (any Error) -> Void

    /// The data's version, while notifications arrive; `nil` while they cannot.
    private(set) var version: Int64?
    /// Why the last attempt to connect failed; `nil` once one succeeds.
    private(set) var unreachable: String?
    private var pages: LRUCache<Key, LibraryPage>
    /// The searches waiting for the database, by number.
    private var waiters: [Int: Abandon] = [:]
    private var nextWaiter = 0

    /// An empty cache that keeps at most `costLimit` bytes of answers, for a replica that has
    /// not heard from its database yet.
    init(costLimit: Int) {
        self.pages = LRUCache(costLimit: costLimit)
    }

    // MARK: - Searches

    /// What a search does next.
    enum LookupAction: Equatable {
        /// Answer with this page, read at the current version.
        case answer(LibraryPage)
        /// Fail at once: the database cannot be reached, for this reason.
        case fail(reason: String)
        /// Ask the database.
        case query
    }

    /// How to answer a search for `key`.
    mutating func lookup(_ key: Key) -> LookupAction {
        if version != nil, let page = pages.value(for: key) { return .answer(page) }
        if let unreachable { return .fail(reason: unreachable) }
        return .query
    }

    /// A page read from the database at `readAt`: kept only if it is what every replica would
    /// now answer, the version the listener last heard of.
    mutating func store(_ page: LibraryPage, for key: Key, readAt version: Int64) {
        guard version == self.version else { return }
        pages.set(page, for: key, cost: page.elements.count + key.prefix.utf8.count + 128)
    }

    /// A number for a search about to wait for the database, for ``wait(_:abandon:)``.
    mutating func newWaiter() -> Int {
        nextWaiter += 1
        return nextWaiter
    }

    /// Registers how to end the wait of search `waiter`. Returns the reason the database cannot
    /// be reached, if it already cannot: the caller abandons the wait at once.
    mutating func wait(_ waiter: Int, abandon: @escaping Abandon) -> String? {
        if let unreachable { return unreachable }
        waiters[waiter] = abandon
        return nil
    }

    /// Search `waiter` has its answer, or has given up.
    mutating func endWait(_ waiter: Int) {
        waiters[waiter] = nil
    }

    // MARK: - The listener

    /// What to do when the listener cannot connect.
    struct UnreachableAction {
        /// End these waits with the reason: no answer is coming.
        var abandon: [Abandon]
        /// Whether this is news (the database could be reached until now): log it.
        var isNews: Bool
    }

    /// The listener could not connect, for `reason`: searches fail at once from now on.
    mutating func connectionFailed(reason: String) -> UnreachableAction {
        defer { (unreachable, waiters) = (reason, [:]) }
        return UnreachableAction(abandon: Array(waiters.values), isNews: unreachable == nil)
    }

    /// The listener connected. Returns whether that is news (the database could not be
    /// reached until now): log it.
    mutating func connected() -> Bool {
        unreachable.take() != nil
    }

    /// The listener heard of `version`. Returns the answers it makes stale, for the caller to
    /// free after the lock; `nil` when the version is not newer, and nothing changes.
    mutating func versionArrived(_ version: Int64) -> LRUCache<Key, LibraryPage>? {
        guard version > self.version ?? .min else { return nil }
        self.version = version
        return takePages()
    }

    /// The listener stopped receiving notifications: nothing cached may be used until it hears
    /// a version again. Returns the answers dropped, for the caller to free after the lock.
    mutating func notificationsLost() -> LRUCache<Key, LibraryPage> {
        version = nil
        return takePages()
    }

    /// The cached pages, leaving none.
    private mutating func takePages() -> LRUCache<Key, LibraryPage> {
        var taken = LRUCache<Key, LibraryPage>(costLimit: pages.costLimit)
        swap(&taken, &pages)
        return taken
    }
}
