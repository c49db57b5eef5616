import Synchronization
import Testing

@testable import CourierImages

/// The download limit: never more than its number at once, in order, and a cancelled waiter
/// gives up its turn without running.
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
        var most: Int { counts.withLock { $0.most } }
        var ran: Int { counts.withLock { $0.ran } }
    }

    @Test func neverMoreThanTheLimitAtOnce() async throws {
        let limit = ConcurrencyLimit(3)
        let gauge = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await limit.run {
                        gauge.enter()
                        try await Task.sleep(for: .milliseconds(10))
                        gauge.leave()
                    }
                }
            }
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
