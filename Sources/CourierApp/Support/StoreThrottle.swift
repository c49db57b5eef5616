import StoreSearch
import Synchronization

/// The app's pause in store searches after the store refused some, shared by every page: while
/// it lasts, searches are answered `429` here and the store is not asked (``StoreBackoff``'s
/// rules, behind a lock).
final class StoreThrottle: Sendable {
    private let backoff = Mutex(StoreBackoff())

    /// How long searches stay paused, or `nil` when one may be sent.
    func remaining() -> Duration? {
        let now = ContinuousClock.now
        return backoff.withLock { $0.remaining(at: now) }
    }

    /// Records the store's refusal; returns how long searches pause.
    func refused(_ limit: StoreRateLimit) -> Duration {
        let now = ContinuousClock.now
        return backoff.withLock { $0.refused(limit, at: now) }
    }

    /// Records an answer from the store.
    func answered() {
        backoff.withLock { $0.answered() }
    }
}
