import Foundation
import Synchronization
public import Testing

/// Lets only a few tests run at once: those of the suites that carry `.loadLimited`.
///
/// Swift Testing starts every test of a run together. On a two-core machine that is a hundred
/// servers, `courier` processes and browsers at once, and a test's own time limits (a request's
/// 30 s, a server's idle timeout) then measure the queue for the cores rather than the code
/// under test, and fail when another process keeps a core busy. A test of a suite with this
/// trait waits for one of ``width`` places first; a suite and a parameterized test as a whole
/// take none, each of their test cases takes one.
///
/// ```swift
/// @Suite(.loadLimited) struct DownloadTests { … }
/// ```
public struct LoadLimit: SuiteTrait, TestTrait, TestScoping {
    /// How many tests run at once: four per core, at least eight, or `COURIER_TEST_WIDTH`.
    public static let width: Int = {
        if let value = ProcessInfo.processInfo.environment["COURIER_TEST_WIDTH"].flatMap(Int.init), value > 0 {
            return value
        }
        return max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)
    }()

    private static let places = Places(width)

    /// Whether this task already holds a place: a test case that meets the trait twice (a
    /// nested suite that carries it too) takes one place, not one inside the other.
    @TaskLocal private static var holdsPlace = false

    /// Whether the trait reaches the suite's tests and nested suites: it does.
    public var isRecursive: Bool { true }

    /// A test case takes a place; a suite or a test function as a whole does not.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` once a place is free, and frees it after. A test cancelled while it
    /// waits (its time limit ran out) ends with `CancellationError` without running.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.holdsPlace { return try await function() }
        try await Self.places.take()
        defer { Self.places.giveBack() }
        try await Self.$holdsPlace.withValue(true) { try await function() }
    }

    /// A counting semaphore whose waiters go in the order they came.
    private final class Places: Sendable {
        private struct State {
            var free: Int
            var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
            var nextID: UInt64 = 0
        }

        private let state: Mutex<State>

        init(_ count: Int) { state = Mutex(State(free: count)) }

        /// Waits for a place; throws `CancellationError` if the task is cancelled first.
        func take() async throws {
            let id = state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let granted: Bool? = state.withLock { state in
                        if Task.isCancelled { return nil }
                        guard state.free > 0 else {
                            state.waiting.append((id, continuation))
                            return false
                        }
                        state.free -= 1
                        return true
                    }
                    switch granted {
                    case .some(true): continuation.resume()
                    case .some(false): break
                    case .none: continuation.resume(throwing: CancellationError())
                    }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).continuation }
                }
                waiter?.resume(throwing: CancellationError())
            }
        }

        func giveBack() {
            let next = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    state.free += 1
                    return nil as CheckedContinuation<Void, any Error>?
                }
                return state.waiting.removeFirst().continuation
            }
            next?.resume()
        }
    }
}

extension Trait where Self == LoadLimit {
    /// Runs the suite's tests only a few at a time with the other load-limited ones; see
    /// ``LoadLimit``.
    public static var loadLimited: Self { LoadLimit() }
}

extension Trait where Self == TimeLimitTrait {
    /// Turns a hang (an endless loop, a quadratic search over megabytes) into a failure. Not a
    /// measure of speed: ten minutes is far beyond what the test takes on a loaded machine, the
    /// wait for a ``LoadLimit`` place included, which Swift Testing counts in a time limit.
    public static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
