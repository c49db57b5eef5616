import CourierTestServer
import CourierTestTraits
import Testing

@testable import Courier

@Suite(.loadLimited)
struct LRUCacheTests {
    @Test func evictsTheLeastRecentlyUsedPastTheCostLimit() {
        var cache = LRUCache<String, Int>(costLimit: 10)
        cache.set(1, for: "a", cost: 4)
        cache.set(2, for: "b", cost: 4)
        #expect(cache.value(for: "a") == 1)  // "b" is now the least recently used
        cache.set(3, for: "c", cost: 4)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        #expect(cache.totalCost == 8)
        #expect(cache.count == 2)
    }

    @Test func replacingAValueUpdatesItsCost() {
        var cache = LRUCache<String, Int>(costLimit: 10)
        cache.set(1, for: "a", cost: 9)
        cache.set(2, for: "a", cost: 2)
        cache.set(3, for: "b", cost: 8)
        #expect(cache.value(for: "a") == 2)
        #expect(cache.totalCost == 10)
    }

    @Test func valuesCostlierThanTheLimitAreNotKept() {
        var cache = LRUCache<String, Int>(costLimit: 10)
        cache.set(1, for: "a", cost: 5)
        cache.set(2, for: "huge", cost: 11)
        #expect(cache.value(for: "huge") == nil)
        #expect(cache.value(for: "a") == 1)
    }

    @Test func agreesWithAListModelUnderRandomUse() {
        var generator = SeededGenerator()
        var cache = LRUCache<Int, Int>(costLimit: 20)
        var model: [(key: Int, value: Int, cost: Int)] = []  // oldest first
        for step in 0..<5_000 {
            let key = Int.random(in: 0..<12, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let cost = Int.random(in: 1...8, using: &generator)
                cache.set(step, for: key, cost: cost)
                model.removeAll { $0.key == key }
                model.append((key, step, cost))
                while model.reduce(0, { $0 + $1.cost }) > 20 { model.removeFirst() }
            case 1:
                let expected = model.first { $0.key == key }
                #expect(cache.value(for: key) == expected?.value)
                if let index = model.firstIndex(where: { $0.key == key }) { model.append(model.remove(at: index)) }
            default:
                #expect(cache.removeValue(for: key) == model.first { $0.key == key }?.value)
                model.removeAll { $0.key == key }
            }
            #expect(cache.count == model.count)
            #expect(cache.totalCost == model.reduce(0) { $0 + $1.cost })
        }
    }
}
