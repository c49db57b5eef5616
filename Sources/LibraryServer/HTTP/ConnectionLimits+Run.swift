public import Hummingbird
import ServiceLifecycle
import UnixSignals

extension ConnectionLimits {
    /// Runs `app` until the process gets SIGINT or SIGTERM, then stops it: requests in flight
    /// get ``shutdownTimeout`` to finish and are cancelled after that. If they still do not end
    /// (a response stuck writing to a client that stopped reading), this returns a second later
    /// without them, so that the process can exit: no client can keep a server from stopping.
    ///
    /// - Throws: What `app` throws when it cannot run (the port is taken, say).
    public func run(_ app: some ApplicationProtocol) async throws {
        // Trapped before the server announces itself: a signal sent as soon as it listens is
        // not lost (or fatal).
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: app.logger))
        let running = Task { try await group.run() }
        let ended = { @Sendable in _ = await running.result }
        let signalled = { @Sendable in
            for await _ in signals { return }
        }
        if await !Self.first(ended, signalled) {
            await group.triggerGracefulShutdown()
            let shutdownTimeout = shutdownTimeout
            guard await Self.first(ended, { try? await Task.sleep(for: shutdownTimeout) }) else {
                running.cancel()
                _ = await Self.first(ended, { try? await Task.sleep(for: .seconds(1)) })
                return  // what is still running ends with the process
            }
        }
        try await running.value
    }

    /// Whether `done` finished before `other`; the one that did not is left running.
    private static func first(
        _ done: @escaping @Sendable () async -> Void,
        _ other: @escaping @Sendable () async -> Void
    ) async -> Bool {
        let winner = Winner()
        return await withCheckedContinuation { continuation in
            Task {
                await done()
                if await winner.claim() { continuation.resume(returning: true) }
            }
            Task {
                await other()
                if await winner.claim() { continuation.resume(returning: false) }
            }
        }
    }

    /// Who finished first.
    private actor Winner {
        private var claimed = false

        /// True the first time only.
        func claim() -> Bool {
            defer { claimed = true }
            return !claimed
        }
    }
}
