/// When to search the store again after it refused searches (``StoreRateLimit``): the wait it
/// asked for (1 s to 10 minutes), else one that doubles with each refusal in a row — 10 s,
/// 20 s, 40 s, then 60 s, by when the store's minute has passed. An answer ends the run of
/// refusals.
///
/// A value: keep it where searches are made (behind a lock if they are made at once), and ask
/// it before each search.
///
/// ```swift
/// var backoff = StoreBackoff()
/// if let wait = backoff.remaining(at: .now) { return showStatus("Searching again in \(wait).") }
/// do throws(RequestError) {
///     let found = try await store.send(ITunesStore.search(term: term))
///     backoff.answered()
///     show(found.results)
/// } catch {
///     guard let limit = StoreRateLimit(error) else { return showError(error.message) }
///     let wait = backoff.refused(limit, at: .now)
///     showStatus("The store asks for a pause; searching again in \(wait).")
/// }
/// ```
public struct StoreBackoff: Sendable, Equatable {
    /// Refusals in a row.
    public private(set) var refusals = 0
    /// Until when no search should be sent.
    public private(set) var pausedUntil: ContinuousClock.Instant?

    /// The first wait without a `Retry-After`; each refusal in a row doubles it, up to
    /// ``longestDoubledWait``.
    public static let firstWait = Duration.seconds(10)
    /// The longest wait without a `Retry-After`.
    public static let longestDoubledWait = Duration.seconds(60)
    /// The longest wait a `Retry-After` gets: a longer one is cut to it.
    public static let longestWait = Duration.seconds(600)

    /// No pause.
    public init() {}

    /// Records a refusal at `now` and returns how long to wait.
    public mutating func refused(_ limit: StoreRateLimit, at now: ContinuousClock.Instant) -> Duration {
        refusals = min(refusals + 1, 16)
        let doubled = min(Self.firstWait * (1 << (refusals - 1)), Self.longestDoubledWait)
        let wait = min(max(limit.retryAfter ?? doubled, .seconds(1)), Self.longestWait)
        pausedUntil = now.advanced(by: wait)
        return wait
    }

    /// Records an answer: the next refusal waits ``firstWait`` again.
    public mutating func answered() {
        refusals = 0
        pausedUntil = nil
    }

    /// How long searches stay paused at `now`, or `nil` when they may be sent.
    public func remaining(at now: ContinuousClock.Instant) -> Duration? {
        guard let pausedUntil, pausedUntil > now else { return nil }
        return now.duration(to: pausedUntil)
    }
}
