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
    let outcome = Mutex<DeadlineOutcome<Result>>(.notWaiting)
    let tasks = Mutex<[Task<Void, Never>]>([])
    let finish = { @Sendable (result: Swift.Result<Result, any Error>) in
        let waiting = outcome.withLock { state -> CheckedContinuation<Result, any Error>? in
            switch state {
            case .notWaiting:
                state = .early(result)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .early, .finished:
                return nil
            }
        }
        waiting?.resume(with: result)
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
    abandoning { error in finish(.failure(error)) }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let early = outcome.withLock { state -> Swift.Result<Result, any Error>? in
                if case .early(let result) = state {
                    state = .finished
                    return result
                }
                state = .waiting(continuation)
                return nil
            }
            if let early {
                continuation.resume(with: early)
                return
            }
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
            // Finished before the tasks were stored (so none was cancelled), or cancelled
            // before the handler could see a continuation: stop them now.
            let isFinished = outcome.withLock { state in
                if case .finished = state { return true }
                return false
            }
            if isFinished {
                work.cancel()
                timer.cancel()
            } else if Task.isCancelled {
                finish(.failure(CancellationError()))
            }
        }
    } onCancel: {
        finish(.failure(CancellationError()))
    }
}

/// Where a ``withDeadline(_:abandoning:_:)`` wait is. An outcome that comes before the caller
/// waits (an abandonment during `abandoning`, a cancellation) is kept for it rather than lost.
private enum DeadlineOutcome<Result: Sendable> {
    case notWaiting
    case early(Swift.Result<Result, any Error>)
    case waiting(CheckedContinuation<Result, any Error>)
    case finished
}

/// The database did not answer in time.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "no answer within \(limit)" }
}
