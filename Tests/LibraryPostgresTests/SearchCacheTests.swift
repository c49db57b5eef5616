import Courier
import CourierTestTraits
import LibrarySearch
import Synchronization
import Testing

@testable import LibraryPostgres

/// The rules a replica keeps its answers by, without a database: each event in, each action
/// out. (Mutating calls are made before `#expect`, whose expansion cannot mutate.)
@Suite(.loadLimited)
struct SearchCacheTests {
    let key = SearchCache.Key(list: .catalog, prefix: "the", limit: 20, offset: 0)
    let page = LibraryPage(elements: Array(#"{"title":"The Hobbit"}"#.utf8)[...], total: 1, entityTag: "\"pg1\"")

    @Test func nothingIsReusedUntilTheListenerHearsAVersion() {
        var cache = SearchCache(costLimit: 1 << 20)
        var action = cache.lookup(key)
        #expect(action == .query)
        cache.store(page, for: key, readAt: 7)  // read before any version was heard: not kept
        action = cache.lookup(key)
        #expect(action == .query)
        let dropped = cache.versionArrived(7)
        #expect(dropped != nil)
        cache.store(page, for: key, readAt: 7)
        action = cache.lookup(key)
        #expect(action == .answer(page))
    }

    @Test func onlyAnswersReadAtTheCurrentVersionAreKept() {
        var cache = SearchCache(costLimit: 1 << 20)
        _ = cache.versionArrived(7)
        cache.store(page, for: key, readAt: 6)  // a snapshot older than what the listener heard
        var action = cache.lookup(key)
        #expect(action == .query)
        cache.store(page, for: key, readAt: 8)  // newer than heard: another replica may not agree yet
        action = cache.lookup(key)
        #expect(action == .query)
    }

    @Test func aNewerVersionEmptiesTheCacheAndAnOlderOneChangesNothing() throws {
        var cache = SearchCache(costLimit: 1 << 20)
        _ = cache.versionArrived(7)
        cache.store(page, for: key, readAt: 7)
        let older = cache.versionArrived(6)
        let same = cache.versionArrived(7)
        #expect(older == nil && same == nil)
        var action = cache.lookup(key)
        #expect(action == .answer(page))
        let newer = cache.versionArrived(8)
        let dropped = try #require(newer)
        #expect(dropped.count == 1)
        #expect(cache.version == 8)
        action = cache.lookup(key)
        #expect(action == .query)
    }

    @Test func lostNotificationsStopReuseUntilAVersionArrives() {
        var cache = SearchCache(costLimit: 1 << 20)
        _ = cache.versionArrived(7)
        cache.store(page, for: key, readAt: 7)
        let dropped = cache.notificationsLost()
        #expect(dropped.count == 1)
        #expect(cache.version == nil)
        var action = cache.lookup(key)
        #expect(action == .query)
        // The same version heard again is news after a loss: answers may be kept again.
        let again = cache.versionArrived(7)
        #expect(again != nil)
        cache.store(page, for: key, readAt: 7)
        action = cache.lookup(key)
        #expect(action == .answer(page))
    }

    @Test func anUnreachableDatabaseFailsSearchesAndAbandonsWaiters() {
        var cache = SearchCache(costLimit: 1 << 20)
        let abandoned = Mutex<[Int]>([])
        let first = cache.newWaiter()
        let second = cache.newWaiter()
        #expect(first != second)
        let firstRefusal = cache.wait(first) { _ in abandoned.withLock { $0.append(first) } }
        let secondRefusal = cache.wait(second) { _ in abandoned.withLock { $0.append(second) } }
        #expect(firstRefusal == nil && secondRefusal == nil)
        cache.endWait(second)  // answered before the failure

        let failure = cache.connectionFailed(reason: "connection refused")
        #expect(failure.isNews)
        #expect(failure.abandon.count == 1)
        for abandon in failure.abandon { abandon(CancellationError()) }
        #expect(abandoned.withLock { $0 } == [first])
        var action = cache.lookup(key)
        #expect(action == .fail(reason: "connection refused"))

        // A search that starts waiting now is told at once; a second failure is not news.
        let late = cache.newWaiter()
        let lateRefusal = cache.wait(late) { _ in }
        #expect(lateRefusal == "connection refused")
        let secondFailure = cache.connectionFailed(reason: "timed out")
        #expect(!secondFailure.isNews)
        action = cache.lookup(key)
        #expect(action == .fail(reason: "timed out"))

        let backAgain = cache.connected()
        let stillBack = cache.connected()
        #expect(backAgain && !stillBack)
        action = cache.lookup(key)
        #expect(action == .query)
    }

    @Test func aCachedAnswerIsNeverServedWhileTheDatabaseIsUnreachable() {
        // The listener reports `.lost` (dropping the version) before it tries to reconnect.
        var cache = SearchCache(costLimit: 1 << 20)
        _ = cache.versionArrived(3)
        cache.store(page, for: key, readAt: 3)
        _ = cache.notificationsLost()
        _ = cache.connectionFailed(reason: "refused")
        let action = cache.lookup(key)
        #expect(action == .fail(reason: "refused"))
    }

    @Test func aZeroCostLimitKeepsNothing() {
        var cache = SearchCache(costLimit: 0)
        _ = cache.versionArrived(1)
        cache.store(page, for: key, readAt: 1)
        let action = cache.lookup(key)
        #expect(action == .query)
    }
}
