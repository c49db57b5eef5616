public import Courier
public import Foundation
import Synchronization

/// Loads images by URL: one download per URL however many ask at once, a memory cache, the
/// engine's HTTP cache underneath, and a limit on downloads in flight.
///
/// ```swift
/// let pipeline = try ImagePipeline(transport: transport, cacheDirectory: cachesURL.appending(path: "artwork"))
/// if let url = result.imageSmall {
///     let artwork = try await pipeline.image(for: url)
///     print(artwork.format, artwork.pixelWidth, artwork.pixelHeight)
/// }
/// ```
///
/// - **Coalescing**: while a URL is loading, every further request for it waits for the same
///   download.
/// - **Cancellation**: a caller whose task is cancelled stops waiting at once and gets
///   ``ImageError/cancelled``; the download goes on while anyone else still waits, and is
///   cancelled when the last caller leaves — a row scrolled out of sight costs nothing.
/// - **Caching**: decoded headers and bytes stay in memory (least recently used go first,
///   within a byte limit). Below that, the client's HTTP cache, if it has one,
///   keeps responses on disk under HTTP's rules, so a later run revalidates (`304`) instead
///   of downloading again.
/// - **Checking**: bytes whose signature is not PNG, JPEG, GIF or WebP are an error, not an
///   image — a captive portal's HTML page is never cached as artwork.
public final class ImagePipeline: Sendable {
    /// Limits of a pipeline.
    public struct Configuration: Sendable {
        /// Bytes of images the memory cache holds.
        public var memoryCostLimit: Int
        /// Downloads in flight at once; further ones wait their turn.
        public var maximumConcurrentDownloads: Int

        /// A configuration: 64 MB of images in memory, 6 downloads at once.
        public init(memoryCostLimit: Int = 64 << 20, maximumConcurrentDownloads: Int = 6) {
            self.memoryCostLimit = memoryCostLimit
            self.maximumConcurrentDownloads = maximumConcurrentDownloads
        }
    }

    private struct Load {
        let id: UInt64
        var task: Task<Void, Never>?
        var waiters: [ObjectIdentifier: OneShot<LoadedImage>]
    }

    private enum Lookup {
        case cached(LoadedImage)
        case waiting(OneShot<LoadedImage>)
    }

    private struct State {
        var memory: LRUCache<URL, LoadedImage>
        var loads: [URL: Load] = [:]
        var nextLoadID: UInt64 = 0
        /// Download tasks not yet finished, abandoned ones included.
        var downloadsRunning = 0
    }

    /// The client images are fetched with.
    public let client: HTTPClient
    private let downloads: ConcurrencyLimit
    private let state: Mutex<State>

    /// A pipeline that fetches through `client`. Give the client a `cache` for an HTTP cache
    /// under the memory cache; leave its base URL unset, since image URLs are
    /// absolute.
    public init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.downloads = ConcurrencyLimit(configuration.maximumConcurrentDownloads)
        self.state = Mutex(State(memory: LRUCache(costLimit: configuration.memoryCostLimit)))
    }

    /// A pipeline over `transport` with an HTTP cache in `cacheDirectory` (memory only when
    /// `nil`), holding at most `diskCapacity` bytes.
    ///
    /// - Throws: `CacheStorageError` when the directory cannot be created or read.
    public convenience init(
        transport: any HTTPTransport,
        cacheDirectory: URL?,
        diskCapacity: Int = 256 << 20,
        configuration: Configuration = Configuration()
    ) throws(CacheStorageError) {
        let cache = try HTTPCache(memoryCapacity: 0, directory: cacheDirectory, diskCapacity: diskCapacity)
        let client = HTTPClient(transport: transport, configuration: .init(cache: cache))
        self.init(client: client, configuration: configuration)
    }

    // MARK: - Loading

    /// The image at `url`, from memory, the HTTP cache or the network.
    ///
    /// - Throws: ``ImageError/request(_:)`` when the request fails,
    ///   ``ImageError/notAnImage(url:reason:)`` when the bytes are not an image,
    ///   ``ImageError/cancelled`` when the calling task is cancelled.
    public func image(for url: URL) async throws(ImageError) -> LoadedImage {
        let lookup: Lookup = state.withLock { state in
            if var image = state.memory.value(for: url) {
                image.source = .memory
                return .cached(image)
            }
            let waiter = OneShot<LoadedImage>()
            if state.loads[url] != nil {
                state.loads[url]?.waiters[ObjectIdentifier(waiter)] = waiter
            } else {
                let id = state.nextLoadID
                state.nextLoadID += 1
                state.loads[url] = Load(id: id, waiters: [ObjectIdentifier(waiter): waiter])
                state.downloadsRunning += 1
                state.loads[url]?.task = Task { await self.load(url, id: id) }
            }
            return .waiting(waiter)
        }
        let waiter: OneShot<LoadedImage>
        switch lookup {
        case .cached(let image): return image
        case .waiting(let pending): waiter = pending
        }
        do {
            return try await withTaskCancellationHandler {
                try await waiter.value()
            } onCancel: {
                detach(waiter, from: url)
            }
        } catch let error as ImageError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// The image at `url` if the memory cache holds it; never waits.
    public func cachedImage(for url: URL) -> LoadedImage? {
        state.withLock { state in
            guard var image = state.memory.value(for: url) else { return nil }
            image.source = .memory
            return image
        }
    }

    /// Cancels the background revalidations of its client's HTTP cache (`HTTPCache.shutdown()`).
    /// Call it before shutting down the transport.
    public func shutdown() async {
        await client.configuration.cache?.shutdown()
    }

    /// Empties the memory cache; the HTTP cache keeps its responses.
    public func removeAllFromMemory() {
        state.withLock { $0.memory.removeAll() }
    }

    /// How many URLs are loading now.
    public var loadsInFlight: Int {
        state.withLock { $0.loads.count }
    }

    /// How many callers wait for `url` (for tests).
    func callersWaiting(for url: URL) -> Int {
        state.withLock { $0.loads[url]?.waiters.count ?? 0 }
    }

    /// How many download tasks have not finished, abandoned ones included (for tests).
    var downloadsRunning: Int {
        state.withLock { $0.downloadsRunning }
    }

    // MARK: - Internals

    private func detach(_ waiter: OneShot<LoadedImage>, from url: URL) {
        let abandoned: Task<Void, Never>? = state.withLock { state in
            guard var load = state.loads[url], load.waiters.removeValue(forKey: ObjectIdentifier(waiter)) != nil else {
                return nil
            }
            guard load.waiters.isEmpty else {
                state.loads[url] = load
                return nil
            }
            state.loads[url] = nil
            return load.task
        }
        abandoned?.cancel()
        waiter.deliver(.failure(ImageError.cancelled))
    }

    private func load(_ url: URL, id: UInt64) async {
        let result: Result<LoadedImage, any Error>
        do {
            result = .success(try await downloads.run { try await self.fetch(url) })
        } catch let error as ImageError {
            result = .failure(error)
        } catch {
            result = .failure(ImageError.cancelled)
        }
        let waiters: [OneShot<LoadedImage>] = state.withLock { state in
            state.downloadsRunning -= 1
            if case .success(let image) = result {
                state.memory.set(image, for: url, cost: image.data.count)
            }
            guard state.loads[url]?.id == id, let load = state.loads.removeValue(forKey: url) else { return [] }
            return Array(load.waiters.values)
        }
        for waiter in waiters { waiter.deliver(result) }
    }

    private func fetch(_ url: URL) async throws(ImageError) -> LoadedImage {
        let response: DecodedResponse<Data>
        do {
            response = try await client.response(for: Endpoint<Data>(url: url))
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .request(error)
        }
        let header: ImageHeader
        do {
            header = try ImageHeader(reading: response.value)
        } catch {
            throw .notAnImage(url: response.url, reason: error)
        }
        let source: LoadedImage.Source =
            switch response.cacheOutcome {
            case .hit, .stale: .httpCache
            case .revalidated: .revalidated
            case .miss, nil: .network
            }
        return LoadedImage(url: url, data: response.value, header: header, source: source)
    }
}
