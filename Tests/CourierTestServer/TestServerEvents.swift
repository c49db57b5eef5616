import Foundation

/// What a ``TestServer`` observed: connections its clients closed, and hits per key.
public actor TestServerEvents {
    private var disconnected: Set<String> = []
    private var waiters: [String: [(token: UUID, continuation: CheckedContinuation<Void, Never>)]] = [:]
    private var hits: [String: Int] = [:]
    private var queries: [String: [String]] = [:]

    /// No events yet.
    public init() {}

    /// Records that the client of the request tagged `id` closed its connection.
    func recordDisconnect(_ id: String) {
        disconnected.insert(id)
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.continuation.resume() }
    }

    /// Counts a hit on `key` and returns the count so far.
    func hit(_ key: String) -> Int {
        hits[key, default: 0] += 1
        notifyWaiters()
        return hits[key, default: 0]
    }

    /// Waits until `key` has been hit `count` times, or throws after `timeout` (a margin for a
    /// loaded machine: the wait ends at the event, not at the timeout).
    public func waitForHit(_ key: String, count: Int = 1, timeout: Duration = .seconds(30)) async throws {
        try await waitUntil("\(key) was not hit \(count) times", timeout: timeout) { $0.hits[key, default: 0] >= count }
    }

    /// Waits until `route` has received `count` requests, or throws after `timeout`.
    public func waitForQueries(for route: String, count: Int = 1, timeout: Duration = .seconds(30)) async throws {
        try await waitUntil("\(route) did not receive \(count) requests", timeout: timeout) {
            $0.queries[route, default: []].count >= count
        }
    }

    /// Records the raw (still percent-encoded) query string a request to `route` carried.
    func record(query: String, for route: String) {
        queries[route, default: []].append(query)
        notifyWaiters()
    }

    // MARK: - Holding requests

    private var released: Set<String> = []
    private var held: Set<String> = []

    /// Holds the requests named by `keys` (such as `search:king` for the store's search for
    /// "king") until their client leaves; see each route for its keys.
    public func hold(_ keys: Set<String>) {
        held.formUnion(keys)
    }

    /// Whether requests named `key` are held.
    func isHeld(_ key: String) -> Bool { held.contains(key) }

    /// Whether the client of the request tagged `id` closed its connection.
    public func didDisconnect(_ id: String) -> Bool { disconnected.contains(id) }

    /// Lets the requests held under `name` finish.
    public func release(_ name: String) {
        released.insert(name)
        notifyWaiters()
    }

    /// Waits until `name` is released (a minute at most, so that a test that forgets cannot
    /// hold the server for ever).
    func waitForRelease(_ name: String) async {
        try? await waitUntil("\(name) was not released", timeout: .seconds(60)) { $0.released.contains(name) }
    }

    // MARK: - Waiting for events

    private var eventWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    /// How many events happened: a waiter registering late sees it missed one.
    private var eventCount = 0
    private var abandonedWaiters: Set<Int> = []
    private var nextWaiter = 0

    /// Checks `holds` now and after every event until it holds or `timeout` passes.
    private func waitUntil(
        _ failure: String,
        timeout: Duration,
        _ holds: @Sendable (isolated TestServerEvents) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !holds(self) {
            guard ContinuousClock.now < deadline else { throw TestServerError.timedOut(failure) }
            nextWaiter += 1
            let id = nextWaiter
            let seen = eventCount
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await withTaskCancellationHandler {
                        await self.nextEvent(id, after: seen)
                    } onCancel: {
                        Task { await self.abandon(id) }
                    }
                }
                group.addTask { try? await Task.sleep(until: deadline) }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private func nextEvent(_ id: Int, after seen: Int) async {
        if abandonedWaiters.remove(id) != nil || eventCount > seen { return }
        await withCheckedContinuation { eventWaiters[id] = $0 }
    }

    private func abandon(_ id: Int) {
        if let waiter = eventWaiters.removeValue(forKey: id) {
            waiter.resume()
        } else {
            abandonedWaiters.insert(id)
        }
    }

    private func notifyWaiters() {
        eventCount += 1
        let waiting = eventWaiters
        eventWaiters = [:]
        for waiter in waiting.values { waiter.resume() }
    }

    /// The raw query strings of the requests to `route`, oldest first.
    public func queries(for route: String) -> [String] { queries[route, default: []] }

    /// How many times `key` was hit.
    public func hitCount(_ key: String) -> Int { hits[key, default: 0] }

    /// Waits until the client of the request tagged `id` has closed its connection, or throws
    /// after `timeout`.
    public func waitForDisconnect(_ id: String, timeout: Duration = .seconds(30)) async throws {
        if disconnected.contains(id) { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitUntilDisconnected(id) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TestServerError.timedOut("the server did not see request \(id) disconnect")
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// Returns when `id` disconnects, or when the task is cancelled (so that a timeout beside
    /// it ends the wait instead of waiting for it for ever).
    private func waitUntilDisconnected(_ id: String) async {
        if disconnected.contains(id) { return }
        let token = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters[id, default: []].append((token, continuation))
                if Task.isCancelled { release(id, token) }
            }
        } onCancel: {
            Task { await self.release(id, token) }
        }
    }

    /// Ends the wait of `token` for `id`, if it is still waiting.
    private func release(_ id: String, _ token: UUID) {
        guard let index = waiters[id]?.firstIndex(where: { $0.token == token }) else { return }
        waiters[id]?.remove(at: index).continuation.resume()
    }
}
