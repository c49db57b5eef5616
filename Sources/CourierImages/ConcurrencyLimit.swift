import DequeModule
import Synchronization

/// Lets at most `limit` operations run at once; the others wait their turn in order. A waiting
/// operation whose task is cancelled leaves the queue at once.
final class ConcurrencyLimit: Sendable {
    private struct State {
        var available: Int
        var queue: Deque<OneShot<Void>> = []
    }

    private let state: Mutex<State>

    /// A limit of `limit` (at least 1) operations at once.
    init(_ limit: Int) {
        state = Mutex(State(available: max(1, limit)))
    }

    /// How many operations are waiting for a place.
    var waitingCount: Int { state.withLock { $0.queue.count } }

    /// Runs `operation` when a place is free.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting; otherwise what
    ///   `operation` throws.
    func run<Result: Sendable>(_ operation: () async throws -> Result) async throws -> Result {
        try await acquire()
        defer { release() }
        return try await operation()
    }

    private func acquire() async throws {
        let turn: OneShot<Void>? = state.withLock { state in
            guard state.available == 0 else {
                state.available -= 1
                return nil
            }
            let turn = OneShot<Void>()
            state.queue.append(turn)
            return turn
        }
        guard let turn else { return }
        try await withTaskCancellationHandler {
            try await turn.value()
        } onCancel: {
            if turn.deliver(.failure(CancellationError())) {
                state.withLock { state in state.queue.removeAll { $0 === turn } }
            }
        }
    }

    private func release() {
        state.withLock { state in
            // A turn whose waiter was cancelled refuses the place; offer it to the next.
            while let next = state.queue.popFirst() {
                if next.deliver(.success(())) { return }
            }
            state.available += 1
        }
    }
}
