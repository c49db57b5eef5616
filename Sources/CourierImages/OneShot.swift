import Synchronization

/// A value handed from one task to another exactly once: whichever of a result and a
/// cancellation arrives first wins, and the result may arrive before or after the receiver
/// starts waiting.
final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, any Error>)
        case delivered(Result<Value, any Error>)
        case done
    }

    private let state = Mutex(State.idle)

    /// Waits for the value. Call it once.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let early: Result<Value, any Error>? = state.withLock { state in
                switch state {
                case .idle:
                    state = .waiting(continuation)
                    return nil
                case .delivered(let result):
                    state = .done
                    return result
                case .waiting, .done:
                    return .failure(CancellationError())  // a second wait: nothing is left for it
                }
            }
            if let early { continuation.resume(with: early) }
        }
    }

    /// Delivers `result`, if nothing was delivered before; returns whether it was.
    @discardableResult
    func deliver(_ result: Result<Value, any Error>) -> Bool {
        let (accepted, continuation): (Bool, CheckedContinuation<Value, any Error>?) = state.withLock { state in
            switch state {
            case .idle:
                state = .delivered(result)
                return (true, nil)
            case .waiting(let continuation):
                state = .done
                return (true, continuation)
            case .delivered, .done:
                return (false, nil)
            }
        }
        continuation?.resume(with: result)
        return accepted
    }
}
