import Courier
import Foundation
import Synchronization

/// The artwork URLs of results the app has returned: the only images it fetches for the page,
/// so the artwork endpoint is not an open proxy. Holds the most recent `capacity` URLs.
final class ArtworkAllowList: Sendable {
    private let urls: Mutex<LRUCache<URL, Void>>

    init(capacity: Int = 8192) {
        urls = Mutex(LRUCache(costLimit: capacity))
    }

    /// Allows `urls`.
    func allow(_ urls: some Sequence<URL>) {
        self.urls.withLock { list in
            for url in urls { list.set((), for: url, cost: 1) }
        }
    }

    /// Whether `url` came from a result the app returned.
    func allows(_ url: URL) -> Bool {
        urls.withLock { $0.value(for: url) != nil }
    }
}
