import Synchronization

/// The revalidations an ``HTTPCache`` runs after answering with a stale response
/// (`stale-while-revalidate`, RFC 5861 §3): at most one per URL at a time, each a task the
/// cache keeps until it ends and cancels when it shuts down.
final class BackgroundRevalidations: Sendable {
    private struct State {
        var tasks: [String: (id: UInt64, task: Task<Void, Never>)] = [:]
        var nextID: UInt64 = 0
        var isShutDown = false
    }

    private let state = Mutex(State())

    /// Runs `work` for `key` in the background, unless one is already under way for it.
    ///
    /// - Returns: `false` when the cache is shut down and nothing runs: the caller then
    ///   revalidates before it answers.
    func start(key: String, _ work: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { state in
            guard !state.isShutDown else { return false }
            guard state.tasks[key] == nil else { return true }
            let id = state.nextID
            state.nextID += 1
            // The task's handle is kept (and removed by the task itself when it ends): the
            // cache cancels and awaits it in `shutdown()`. The task cannot remove itself before
            // it is recorded: that takes the lock held here.
            let task = Task {
                await work()
                self.finished(key: key, id: id)
            }
            state.tasks[key] = (id, task)
            return true
        }
    }

    /// The number of revalidations under way.
    var count: Int { state.withLock { $0.tasks.count } }

    /// Waits until no revalidation is under way, those that start meanwhile included.
    func waitUntilIdle() async {
        while let task = state.withLock({ $0.tasks.values.first?.task }) {
            await task.value
        }
    }

    /// Cancels the revalidations under way, waits for them to end, and starts no more.
    func shutdown() async {
        let tasks = state.withLock { state in
            state.isShutDown = true
            return state.tasks.values.map(\.task)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func finished(key: String, id: UInt64) {
        state.withLock { state in
            if state.tasks[key]?.id == id { state.tasks[key] = nil }
        }
    }
}
