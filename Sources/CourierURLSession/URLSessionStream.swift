import Courier
import DequeModule
import HTTPTypes
import Synchronization

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// What a `URLSession` delegate received for a streamed request, waiting for the task that
/// hands it on.
///
/// On Apple platforms the data task is suspended while about a megabyte waits, and resumed once
/// half of it has been taken. FoundationNetworking on Linux keeps delivering to a suspended
/// task, so there the transfer cannot be held back: a reader more than ``linuxLimit`` bytes
/// behind ends the exchange with a clear error instead of letting memory grow.
final class URLSessionStream: Sendable {
    /// A part of the response.
    enum Event {
        case head(HTTPResponse)
        case body(Data)
    }

    private struct State {
        var events: Deque<Event> = []
        var bufferedBytes = 0
        var end: Result<Void, RequestError>?
        var waiter: CheckedContinuation<Result<Event?, RequestError>, Never>?
        var suspended = false
    }

    private static let highWater = 1 << 20
    /// How far a reader may fall behind where suspending the task does not hold it back.
    static let linuxLimit = 16 << 20
    private let state = Mutex(State())
    private let task: URLSessionDataTask
    private let request: RequestSummary

    init(task: URLSessionDataTask, request: RequestSummary) {
        self.task = task
        self.request = request
    }

    /// Called by the delegate with each part, in order.
    func deliver(_ event: Event) {
        enum Action {
            case none
            case hand(CheckedContinuation<Result<Event?, RequestError>, Never>)
            case overrun
        }
        let action = state.withLock { state -> Action in
            guard state.end == nil else { return .none }
            if let waiter = state.waiter {
                state.waiter = nil
                return .hand(waiter)
            }
            state.events.append(event)
            if case .body(let data) = event { state.bufferedBytes += data.count }
            #if canImport(FoundationNetworking)
            return state.bufferedBytes > Self.linuxLimit ? .overrun : .none
            #else
            guard state.bufferedBytes >= Self.highWater, !state.suspended else { return .none }
            state.suspended = true
            // Under the lock, so that a resume for this suspension cannot overtake it.
            task.suspend()
            return .none
            #endif
        }
        switch action {
        case .none: break
        case .hand(let waiter): waiter.resume(returning: .success(event))
        case .overrun:
            let detail =
                "the reader fell more than \(Self.linuxLimit >> 20) MiB behind, and URLSession on Linux cannot hold "
                + "the transfer back; read faster, or stream with AsyncHTTPClientTransport"
            finish(.failure(.transport(TransportFailure(.other, request: request, detail: detail))))
            task.cancel()
        }
    }

    /// Called by the delegate when the task completed.
    func finish(_ result: Result<Void, RequestError>) {
        let waiter = state.withLock { state in
            if state.end == nil { state.end = result }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result.map { nil })
    }

    /// The next part, or `nil` after the last.
    func next() async throws(RequestError) -> Event? {
        let result = await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Result<Event?, RequestError>? in
                if let event = state.events.popFirst() {
                    if case .body(let data) = event { state.bufferedBytes -= data.count }
                    if state.suspended, state.bufferedBytes < Self.highWater / 2 {
                        state.suspended = false
                        task.resume()
                    }
                    return .success(event)
                }
                if let end = state.end { return end.map { nil } }
                state.waiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        return try result.get()
    }
}
