import Courier
import StoreSearch
import Synchronization

/// One ``SearchSession`` per open page, so that each keystroke supersedes that page's search
/// in flight and no other page's. The least recently used sessions are forgotten past
/// `capacity`: a page that comes back gets a new one.
final class SearchSessions: Sendable {
    private let store: HTTPClient
    private let sessions: Mutex<LRUCache<String, SearchSession>>

    init(store: HTTPClient, capacity: Int = 256) {
        self.store = store
        self.sessions = Mutex(LRUCache(costLimit: capacity))
    }

    /// The session of the page that calls itself `id`.
    func session(for id: String) -> SearchSession {
        sessions.withLock { sessions in
            if let session = sessions.value(for: id) { return session }
            let session = SearchSession(store: store)
            sessions.set(session, for: id, cost: 1)
            return session
        }
    }

    /// Whether `id` can name a page: 1 to 64 letters, digits and dashes.
    static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) || $0 == 0x2D
            }
    }
}
