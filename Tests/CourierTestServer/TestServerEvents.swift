/// What a ``TestServer`` observed: connections its clients closed, and hits per key.
public actor TestServerEvents {
    private var disconnected: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var hits: [String: Int] = [:]
    private var queries: [String: [String]] = [:]

    /// No events yet.
    public init() {}

    /// Records that the client of the request tagged `id` closed its connection.
    func recordDisconnect(_ id: String) {
        disconnected.insert(id)
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume() }
    }

    /// Counts a hit on `key` and returns the count so far.
    func hit(_ key: String) -> Int {
        hits[key, default: 0] += 1
        return hits[key, default: 0]
    }

    /// Waits until `key` has been hit at least once, or throws after `timeout`.
    public func waitForHit(_ key: String, timeout: Duration = .seconds(5)) async throws {
        let deadline = ContinuousClock.now + timeout
        while hits[key, default: 0] == 0 {
            guard ContinuousClock.now < deadline else { throw TestServerError.timedOut("nothing hit \(key)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Records the raw (still percent-encoded) query string a request to `route` carried.
    func record(query: String, for route: String) {
        queries[route, default: []].append(query)
    }

    /// The raw query strings of the requests to `route`, oldest first.
    public func queries(for route: String) -> [String] { queries[route, default: []] }

    /// How many times `key` was hit.
    public func hitCount(_ key: String) -> Int { hits[key, default: 0] }

    /// Waits until the client of the request tagged `id` has closed its connection, or throws
    /// after `timeout`.
    public func waitForDisconnect(_ id: String, timeout: Duration = .seconds(5)) async throws {
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

    private func waitUntilDisconnected(_ id: String) async {
        if disconnected.contains(id) { return }
        await withCheckedContinuation { waiters[id, default: []].append($0) }
    }
}
