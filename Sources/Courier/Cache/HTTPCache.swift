public import Foundation
public import Logging
import Synchronization

/// A private HTTP cache (RFC 9111) for ``HTTPClient``: a memory tier and, optionally, a
/// directory on disk that survives restarts. Give it to a client as its
/// ``HTTPClient/Configuration/cache``.
///
/// ```swift
/// let cache = try HTTPCache(directory: URL(fileURLWithPath: "Caches/http"))
/// let client = HTTPClient(transport: transport, configuration: .init(cache: cache))
/// let again = try await client.send(endpoint)  // a HIT while the response is fresh
/// ```
///
/// Responses are stored by method and full URL, query included, with one variant per
/// combination of the fields their `Vary` names. A damaged file on disk is dropped, never served.
public final class HTTPCache: Sendable {
    /// The most bytes the memory tier holds.
    public let memoryCapacity: Int
    private let memory: Mutex<LRUCache<String, [CachedResponse]>>
    private let disk: DiskCacheStore?
    /// Hashes the credentials that select entries, so that no file holds them.
    let secrets: CacheSecrets
    /// The revalidations under way after stale responses were used (`stale-while-revalidate`).
    let revalidations = BackgroundRevalidations()

    /// Creates a cache.
    ///
    /// The directory is created readable by its owner only (0700), each entry file likewise
    /// (0600); an existing directory another user owns or may write to is refused. Entries hold
    /// no credentials and no URLs: request values selected by `Vary` that are credentials and
    /// the URL an entry is filed under are kept only as keyed hashes, and response fields such
    /// as `Set-Cookie` are not written.
    ///
    /// - Parameters:
    ///   - memoryCapacity: Bytes of responses kept in memory (least recently used go first).
    ///   - directory: Where to keep responses across runs; `nil` for memory only.
    ///   - diskCapacity: Bytes the directory may hold before the least recently used entries go.
    ///   - logger: Where failures to read or write the directory are reported; entries that
    ///     cannot be used are then misses.
    /// - Throws: ``CacheStorageError`` when the directory cannot be created or read.
    public init(
        memoryCapacity: Int = 32 << 20,
        directory: URL? = nil,
        diskCapacity: Int = 512 << 20,
        logger: Logger = Logger(label: "courier.cache", factory: { _ in SwiftLogNoOpLogHandler() })
    )
        throws(CacheStorageError)
    {
        self.memoryCapacity = memoryCapacity
        self.memory = Mutex(LRUCache(costLimit: memoryCapacity))
        if let directory {
            self.disk = try DiskCacheStore(directory: directory, capacity: diskCapacity, logger: logger)
            self.secrets = try CacheSecrets.stored(in: directory)
        } else {
            self.disk = nil
            self.secrets = .random()
        }
    }

    /// Removes every stored response, from memory and disk.
    public func removeAll() async {
        memory.withLock { $0.removeAll() }
        await disk?.removeAll()
    }

    // MARK: - Background revalidation

    /// Waits until the revalidations under way in the background have ended.
    ///
    /// A response within its `stale-while-revalidate` window is answered at once and
    /// revalidated by a task the cache owns, at most one per URL. A program about to exit
    /// calls this so that the next run finds the response fresh.
    public func waitForRevalidations() async {
        await revalidations.waitUntilIdle()
    }

    /// Cancels the revalidations under way in the background and waits for them to end. From
    /// then on, a stale response is revalidated before it is used. Call it before shutting
    /// down the transport of the clients that use this cache.
    ///
    /// ```swift
    /// await cache.shutdown()
    /// try await transport.shutdown()
    /// ```
    public func shutdown() async {
        await revalidations.shutdown()
    }

    // MARK: - Storage

    /// The stored variants for `key`, from memory or else from disk.
    func variants(forKey key: String) async -> [CachedResponse] {
        if let variants = memory.withLock({ $0.value(for: key) }) { return variants }
        guard let disk, let variants = await disk.read(key: secrets.hashed(key), url: key),
            !variants.isEmpty
        else { return [] }
        memory.withLock { $0.set(variants, for: key, cost: variants.reduce(0) { $0 + $1.cost }) }
        return variants
    }

    /// Replaces the stored variants for `key`; none removes the key.
    func store(_ variants: [CachedResponse], forKey key: String) async {
        guard !variants.isEmpty else {
            await remove(key: key)
            return
        }
        memory.withLock { $0.set(variants, for: key, cost: variants.reduce(0) { $0 + $1.cost }) }
        await disk?.write(variants, key: secrets.hashed(key))
    }

    /// Forgets everything stored for `key`.
    func remove(key: String) async {
        memory.withLock { _ = $0.removeValue(for: key) }
        await disk?.remove(key: secrets.hashed(key))
    }
}

/// A cache directory that cannot be used.
public struct CacheStorageError: Error, Sendable, CustomStringConvertible {
    /// The directory.
    public var directory: String
    /// Why it cannot be used.
    public var reason: String

    /// "Cannot use /path as a cache directory: …".
    public var description: String {
        "Cannot use \(directory) as a cache directory: \(reason). Pass a directory you can write to."
    }
}
