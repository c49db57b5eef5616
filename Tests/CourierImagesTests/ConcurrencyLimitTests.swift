import CourierTestTraits
import Synchronization
import Testing

@testable import CourierImages

/// The download limit: never more than its number at once, in order, and a cancelled waiter
/// gives up its turn without running.
@Suite(.loadLimited)
struct ConcurrencyLimitTests {
    private final class Gauge: Sendable {
        private let counts = Mutex((now: 0, most: 0, ran: 0))
        func enter() {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
                $0.ran += 1
            }
        }
        func leave() { counts.withLock { $0.now -= 1 } }
        var now: Int { counts.withLock { $0.now } }
        var most: Int { counts.withLock { $0.most } }
        var ran: Int { counts.withLock { $0.ran } }
    }

    /// Turns to finish, given by the test and taken by the operations.
    private final class Permits: Sendable {
        private let count = Mutex(0)
        func give(_ more: Int) { count.withLock { $0 += more } }
        func take() -> Bool {
            count.withLock { count in
                guard count > 0 else { return false }
                count -= 1
                return true
            }
        }
    }

    /// Twenty operations that each run until the test lets one go: three run, seventeen wait
    /// (the test waits for that state, not for time to pass), and letting them go one at a time
    /// never lets a fourth in.
    @Test func neverMoreThanTheLimitAtOnce() async throws {
        let limit = ConcurrencyLimit(3)
        let gauge = Gauge()
        let permits = Permits()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await limit.run {
                        gauge.enter()
                        while !permits.take() { await Task.yield() }
                        gauge.leave()
                    }
                }
            }
            while gauge.now < 3 || limit.waitingCount < 17 { await Task.yield() }
            #expect(gauge.now == 3)
            permits.give(20)
            try await group.waitForAll()
        }
        #expect(gauge.most == 3)
        #expect(gauge.ran == 20)
    }

    @Test func aCancelledWaiterLeavesTheQueueWithoutRunning() async throws {
        let limit = ConcurrencyLimit(1)
        let gauge = Gauge()
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await limit.run {
                startedContinuation.yield()
                for await _ in release { break }
            }
        }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        let waiter = Task { try await limit.run { gauge.enter() } }
        while limit.waitingCount == 0 { await Task.yield() }  // the waiter is in the queue
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(limit.waitingCount == 0)
        releaseContinuation.yield()
        try await holder.value
        let after = try await limit.run { 42 }  // the place is free again
        #expect(after == 42)
        #expect(gauge.ran == 0)
    }
}
