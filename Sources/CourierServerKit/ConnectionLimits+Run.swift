public import Hummingbird
public import ServiceLifecycle
import Synchronization

extension ConnectionLimits {
    /// Runs `app` until the process gets SIGINT or SIGTERM, then stops it: requests in flight
    /// get ``shutdownTimeout`` to finish and are cancelled after that. If they still do not end
    /// (a response stuck writing to a client that stopped reading), this returns a second later
    /// without them, so that the process can exit: no client can keep a server from stopping.
    ///
    /// `services` start before the app and stop after it, in reverse order.
    ///
    /// - Throws: What `app` throws when it cannot run (the port is taken, say).
    public func run(_ app: some ApplicationProtocol, after services: [any Service] = []) async throws {
        // Trapped before the server announces itself: a signal sent as soon as it listens is
        // not lost (or fatal).
        let previous = StopSignal.trap()
        defer { StopSignal.restore(previous) }
        try await serve(app, after: services, until: { await StopSignal.wait() }, cancellingAtOnce: true)
    }

    /// Runs `app` until the calling task is cancelled, then stops it as ``run(_:after:)`` stops
    /// it at a signal: gracefully, requests in flight given ``shutdownTimeout``. For a server
    /// that lives inside another program's run (the app's built-in library service, tests),
    /// which cancellation would otherwise cut off mid-request.
    ///
    /// - Throws: What `app` throws when it cannot run (the port is taken, say).
    public func runUntilCancelled(_ app: some ApplicationProtocol, after services: [any Service] = []) async throws {
        let (cancelled, cancel) = AsyncStream<Void>.makeStream()
        try await withTaskCancellationHandler {
            try await serve(app, after: services, until: { for await _ in cancelled {} }, cancellingAtOnce: false)
        } onCancel: {
            cancel.finish()
        }
    }

    /// Runs `app` after `services` until `stop` returns, then shuts them down gracefully within
    /// ``shutdownTimeout``; with `cancellingAtOnce`, the caller's cancellation cancels them
    /// instead.
    private func serve(
        _ app: some ApplicationProtocol,
        after services: [any Service],
        until stop: @escaping @Sendable () async -> Void,
        cancellingAtOnce: Bool
    ) async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: services + [app], logger: app.logger)
        )
        // Unstructured, so that a server stuck past its shutdown timeout can be left behind.
        let running = Task { try await group.run() }
        let ended = { @Sendable in _ = await running.result }
        let shutdownTimeout = shutdownTimeout
        let body = { @Sendable () async throws -> Void in
            if await !Self.first(ended, stop) {
                await group.triggerGracefulShutdown()
                guard await Self.first(ended, { try? await Task.sleep(for: shutdownTimeout) }) else {
                    running.cancel()
                    _ = await Self.first(ended, { try? await Task.sleep(for: .seconds(1)) })
                    return  // what is still running ends with the process
                }
            }
            try await running.value
        }
        guard cancellingAtOnce else { return try await body() }
        try await withTaskCancellationHandler {
            try await body()
        } onCancel: {
            running.cancel()  // the caller's cancellation stops the server, as `runService()` does
        }
    }

    /// Whether `done` finished before `other`. Both run as tasks of their own, and waiting for
    /// them is not cut short by cancellation (the caller's cancellation stops the server, whose
    /// end is then waited for); the one that did not finish first is cancelled.
    private static func first(
        _ done: @escaping @Sendable () async -> Void,
        _ other: @escaping @Sendable () async -> Void
    ) async -> Bool {
        let race = Race()
        return await withCheckedContinuation { continuation in
            race.start([
                Task {
                    await done()
                    if race.win() { continuation.resume(returning: true) }
                },
                Task {
                    await other()
                    if race.win() { continuation.resume(returning: false) }
                },
            ])
        }
    }

    /// Two tasks, the first to finish wins and the other is cancelled.
    private final class Race: Sendable {
        private let state = Mutex((won: false, tasks: [Task<Void, Never>]()))

        func start(_ tasks: [Task<Void, Never>]) {
            let won = state.withLock { state in
                state.tasks = tasks
                return state.won
            }
            if won { for task in tasks { task.cancel() } }
        }

        /// True for the first caller only; it cancels both tasks (the winner has finished).
        func win() -> Bool {
            let (first, tasks) = state.withLock { state in
                defer { state.won = true }
                return (!state.won, state.tasks)
            }
            if first { for task in tasks { task.cancel() } }
            return first
        }
    }
}
