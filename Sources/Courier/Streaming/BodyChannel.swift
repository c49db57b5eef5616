import DequeModule
import Foundation
import HTTPTypes
import Synchronization

/// The bounded buffer between a transport streaming a response (the producer, in a task of its
/// own) and whoever reads the body (the consumer).
///
/// The producer waits when ``highWater`` bytes are buffered and goes on once the consumer has
/// taken half of them, so memory stays bounded whatever the speeds; neither side waits while
/// the other keeps up. Ending it from either side (``cancel(_:)``) cancels the producer's task,
/// which aborts the request on the wire.
final class BodyChannel: Sendable {
    /// How many bytes may wait for the consumer before the producer is held.
    static let highWater = 1 << 20

    private struct State {
        var head: HTTPResponse?
        var headWaiter: CheckedContinuation<Result<HTTPResponse, RequestError>, Never>?
        var chunks: Deque<Data> = []
        var bufferedBytes = 0
        /// How the body ended, once it has: the producer finished, or either side cancelled.
        var end: Result<Void, RequestError>?
        var consumerWaiter: CheckedContinuation<Result<Data?, RequestError>, Never>?
        var producerWaiter: CheckedContinuation<Result<Void, RequestError>, Never>?
        var producer: Task<Void, Never>?
        /// When the transport last delivered something, or was let go after being held.
        var lastActivity: ContinuousClock.Instant
        /// Whether the producer is held because the consumer has not taken enough.
        var producerHeld = false
        /// When the exchange must be over, whatever arrives.
        var expiry: ContinuousClock.Instant?
    }

    private let state: Mutex<State>
    /// The request, for the error of a transport that ends without a head.
    private let request: RequestSummary

    init(request: RequestSummary) {
        self.request = request
        state = Mutex(State(lastActivity: .now))
    }

    /// A channel holding a whole body that has already arrived.
    init(request: RequestSummary, head: HTTPResponse, body: Data) {
        self.request = request
        var state = State(lastActivity: .now)
        state.head = head
        if !body.isEmpty { state.chunks.append(body) }
        state.end = .success(())
        self.state = Mutex(state)
    }

    // MARK: - Producer side

    /// Keeps the producer's task, to cancel it when the channel ends early.
    func attach(_ producer: Task<Void, Never>) {
        let ended = state.withLock { state in
            state.producer = producer
            return state.end != nil
        }
        if ended { producer.cancel() }
    }

    /// The response head arrived.
    func deliver(head: HTTPResponse) {
        let waiter = state.withLock { state in
            state.head = head
            state.lastActivity = .now
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: .success(head))
    }

    /// A piece of the body arrived; returns once the consumer has room for more.
    ///
    /// - Throws: ``RequestError/cancelled`` once the consumer has stopped reading.
    func push(_ chunk: Data) async throws(RequestError) {
        guard !chunk.isEmpty else { return }
        enum Action {
            case failed(RequestError)
            case handed(CheckedContinuation<Result<Data?, RequestError>, Never>)
            case buffered(mustWait: Bool)
        }
        let action = state.withLock { state -> Action in
            if case .failure(let error) = state.end { return .failed(error) }
            state.lastActivity = .now
            if let waiter = state.consumerWaiter {
                state.consumerWaiter = nil
                return .handed(waiter)
            }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            return .buffered(mustWait: state.bufferedBytes >= Self.highWater)
        }
        switch action {
        case .failed(let error): throw error
        case .handed(let waiter): waiter.resume(returning: .success(chunk))
        case .buffered(mustWait: false): return
        case .buffered(mustWait: true):
            let result = await withCheckedContinuation { continuation in
                let now: Result<Void, RequestError>? = state.withLock { state in
                    if case .failure(let error) = state.end { return .failure(error) }
                    guard state.bufferedBytes >= Self.highWater else { return .success(()) }
                    state.producerWaiter = continuation
                    state.producerHeld = true
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
            try result.get()
        }
    }

    /// The transport is done: the body ended, or the exchange failed.
    func finish(_ result: Result<Void, RequestError>) {
        let (headWaiter, consumerWaiter) = state.withLock { state in
            if state.end == nil { state.end = result }
            defer {
                state.headWaiter = nil
                state.consumerWaiter = nil
            }
            return (state.headWaiter, state.consumerWaiter)
        }
        let end = state.withLock { $0.end } ?? result
        switch end {
        case .success:
            let noHead = TransportFailure(.other, request: request, detail: "the transport ended without a response")
            headWaiter?.resume(returning: .failure(.transport(noHead)))
            consumerWaiter?.resume(returning: .success(nil))
        case .failure(let error):
            headWaiter?.resume(returning: .failure(error))
            consumerWaiter?.resume(returning: .failure(error))
        }
    }

    /// Whether nothing has arrived for `idle`, though the producer was free to receive; returns
    /// when to look again otherwise.
    func idleCheck(_ idle: Duration) -> (isIdle: Bool, next: ContinuousClock.Instant) {
        state.withLock { state in
            let now = ContinuousClock.now
            var deadline = state.producerHeld ? now + idle : state.lastActivity + idle
            if let expiry = state.expiry, expiry < deadline { deadline = expiry }
            return (deadline <= now, deadline)
        }
    }

    /// The request body is still being sent: that is not silence.
    func touch() {
        state.withLock { $0.lastActivity = .now }
    }

    /// Bounds the rest of the exchange to `duration` from now, however steadily bytes arrive
    /// (for reading the start of an error page a server might trickle for ever).
    func expire(after duration: Duration) {
        state.withLock { $0.expiry = .now + duration }
    }

    // MARK: - Consumer side

    /// Waits for the response head.
    func head() async throws(RequestError) -> HTTPResponse {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Result<HTTPResponse, RequestError>? = state.withLock { state in
                    if let head = state.head { return .success(head) }
                    if case .failure(let error) = state.end { return .failure(error) }
                    if state.end != nil {
                        let noHead = TransportFailure(
                            .other,
                            request: request,
                            detail: "the transport ended without a response"
                        )
                        return .failure(.transport(noHead))
                    }
                    state.headWaiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            cancel(.cancelled)
        }
        return try result.get()
    }

    /// The next piece of the body, or `nil` at its end.
    func next() async throws(RequestError) -> Data? {
        typealias Release = CheckedContinuation<Result<Void, RequestError>, Never>
        enum Action {
            case taken(Result<Data?, RequestError>, release: Release?)
            case wait
        }
        let action = state.withLock { state -> Action in
            if let taken = Self.take(&state) { return .taken(taken.result, release: taken.release) }
            return .wait
        }
        switch action {
        case .taken(let result, let release):
            release?.resume(returning: .success(()))
            return try result.get()
        case .wait:
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let taken = state.withLock { state in
                        let taken = Self.take(&state)
                        if taken == nil { state.consumerWaiter = continuation }
                        return taken
                    }
                    if let taken {
                        taken.release?.resume(returning: .success(()))
                        continuation.resume(returning: taken.result)
                    }
                }
            } onCancel: {
                cancel(.cancelled)
            }
            return try result.get()
        }
    }

    /// Takes the next buffered piece or the end, and the producer to let go when the buffer has
    /// drained below half; `nil` when the consumer must wait.
    private static func take(
        _ state: inout State
    ) -> (result: Result<Data?, RequestError>, release: CheckedContinuation<Result<Void, RequestError>, Never>?)? {
        if let chunk = state.chunks.popFirst() {
            state.bufferedBytes -= chunk.count
            guard let waiter = state.producerWaiter, state.bufferedBytes < highWater / 2 else {
                return (.success(chunk), nil)
            }
            state.producerWaiter = nil
            state.producerHeld = false
            state.lastActivity = .now
            return (.success(chunk), waiter)
        }
        switch state.end {
        case .success: return (.success(nil), nil)
        case .failure(let error): return (.failure(error), nil)
        case nil: return nil
        }
    }

    /// Ends the channel from the consumer's side: buffered bytes are dropped, whoever waits is
    /// woken with `error`, and the producer's task is cancelled, aborting the request.
    func cancel(_ error: RequestError) {
        let (producer, waiters) = state.withLock { state in
            let producer = state.producer
            let waiters = (state.headWaiter, state.consumerWaiter, state.producerWaiter)
            state.headWaiter = nil
            state.consumerWaiter = nil
            state.producerWaiter = nil
            // A body that arrived whole but was not read to its end is cut short, not complete.
            if state.end == nil || !state.chunks.isEmpty { state.end = .failure(error) }
            state.chunks.removeAll()
            state.bufferedBytes = 0
            return (producer, waiters)
        }
        waiters.0?.resume(returning: .failure(error))
        waiters.1?.resume(returning: .failure(error))
        waiters.2?.resume(returning: .failure(.cancelled))
        producer?.cancel()
    }
}
