public import Foundation
import Synchronization

/// A private HTTP cache (RFC 9111) for ``HTTPClient``: a memory tier and, optionally, a
/// directory on disk that survives restarts. Add it to a client with the ``Caching`` middleware.
///
/// ```swift
/// let cache = try HTTPCache(directory: URL(fileURLWithPath: "Caches/http"))
/// let client = HTTPClient(transport: transport, configuration: .init(middleware: [Caching(cache)]))
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

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - memoryCapacity: Bytes of responses kept in memory (least recently used go first).
    ///   - directory: Where to keep responses across runs; `nil` for memory only.
    ///   - diskCapacity: Bytes the directory may hold before the least recently used entries go.
    /// - Throws: ``CacheStorageError`` when the directory cannot be created or read.
    public init(
        memoryCapacity: Int = 32 << 20,
        directory: URL? = nil,
        diskCapacity: Int = 512 << 20
    )
        throws(CacheStorageError)
    {
        self.memoryCapacity = memoryCapacity
        self.memory = Mutex(LRUCache(costLimit: memoryCapacity))
        self.disk = try directory.map { url throws(CacheStorageError) in
            try DiskCacheStore(directory: url, capacity: diskCapacity)
        }
    }

    /// Removes every stored response, from memory and disk.
    public func removeAll() {
        memory.withLock { $0.removeAll() }
        disk?.removeAll()
    }

    // MARK: - Storage

    /// The stored variants for `key`, from memory or else from disk.
    func variants(forKey key: String) -> [CachedResponse] {
        if let variants = memory.withLock({ $0.value(for: key) }) { return variants }
        guard let variants = disk?.read(key: key), !variants.isEmpty else { return [] }
        memory.withLock { $0.set(variants, for: key, cost: variants.reduce(0) { $0 + $1.cost }) }
        return variants
    }

    /// Replaces the stored variants for `key`; none removes the key.
    func store(_ variants: [CachedResponse], forKey key: String) {
        guard !variants.isEmpty else {
            remove(key: key)
            return
        }
        memory.withLock { $0.set(variants, for: key, cost: variants.reduce(0) { $0 + $1.cost }) }
        disk?.write(variants, key: key)
    }

    /// Forgets everything stored for `key`.
    func remove(key: String) {
        memory.withLock { _ = $0.removeValue(for: key) }
        disk?.remove(key: key)
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
