import Synchronization

/// What `body` returns, or ``DeadlineExceeded`` once `limit` has passed, whichever comes first;
/// `body` is cancelled if it has not finished. The caller never waits longer than `limit`, even
/// for a `body` that ignores cancellation (it is left to end on its own), and is answered at
/// once if it is cancelled itself.
///
/// `abandoning` receives a function that ends the wait at once with the error given to it, for
/// a caller that learns from elsewhere that no answer is coming.
func withDeadline<Result: Sendable>(
    _ limit: Duration,
    abandoning: (@escaping @Sendable (any Error) -> Void) -> Void = { _ in },
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let outcome = Mutex<CheckedContinuation<Result, any Error>?>(nil)
    let tasks = Mutex<[Task<Void, Never>]>([])
    let finish = { @Sendable (result: Swift.Result<Result, any Error>) in
        outcome.withLock { $0.take() }?.resume(with: result)
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
    abandoning { error in finish(.failure(error)) }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.withLock { $0 = continuation }
            let work = Task {
                do {
                    finish(.success(try await body()))
                } catch {
                    finish(.failure(error))
                }
            }
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                finish(.failure(DeadlineExceeded(limit: limit)))
            }
            tasks.withLock { $0 = [work, timer] }
            // Finished already (or cancelled before the tasks existed): stop them now.
            if outcome.withLock({ $0 == nil }) || Task.isCancelled {
                finish(.failure(CancellationError()))
            }
        }
    } onCancel: {
        finish(.failure(CancellationError()))
    }
}

/// The database did not answer in time.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "no answer within \(limit)" }
}
