/// Values by key, up to a total cost; adding past the limit evicts the least recently used.
///
/// A dictionary of slots threaded on an index-linked list, so reads, writes and evictions are
/// O(1). A value type: wrap it in a lock to share it. Courier keeps decoded images and search
/// answers in one; the cost is whatever a program bounds, bytes or entries.
///
/// ```swift
/// let images = Mutex(LRUCache<URL, Data>(costLimit: 32 << 20))   // 32 MiB
/// images.withLock { $0.set(bytes, for: url, cost: bytes.count) }
/// let cached = images.withLock { $0.value(for: url) }
/// ```
package struct LRUCache<Key: Hashable, Value> {
    @usableFromInline
    struct Slot {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var newer: Int?
        @usableFromInline var older: Int?

        @inlinable
        init(key: Key, value: Value, cost: Int, newer: Int?, older: Int?) {
            (self.key, self.value, self.cost, self.newer, self.older) = (key, value, cost, newer, older)
        }
    }

    /// The most the costs of all values may add up to.
    @usableFromInline package let costLimit: Int
    /// The sum of the costs of the values held.
    @usableFromInline package internal(set) var totalCost = 0
    @usableFromInline var slots: [Slot?] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var positions: [Key: Int] = [:]
    @usableFromInline var newest: Int?
    @usableFromInline var oldest: Int?

    /// An empty cache.
    ///
    /// - Parameter costLimit: The most the costs of all values may add up to; a negative limit
    ///   is 0, which keeps nothing that costs anything.
    @inlinable
    package init(costLimit: Int) {
        self.costLimit = max(0, costLimit)
    }

    /// The number of values held.
    @inlinable
    package var count: Int { positions.count }

    /// The value for `key`, which becomes the most recently used.
    @inlinable
    package mutating func value(for key: Key) -> Value? {
        guard let position = positions[key] else { return nil }
        moveToNewest(position)
        return slots[position]?.value
    }

    /// Stores `value` as the most recently used, then evicts the least recently used values
    /// until the total cost is within the limit. A value costlier than the limit is not kept.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: Its key; a value already stored for it is replaced.
    ///   - cost: What it counts against ``costLimit``; a negative cost is 0.
    @inlinable
    package mutating func set(_ value: Value, for key: Key, cost: Int) {
        let cost = max(0, cost)
        removeValue(for: key)
        guard cost <= costLimit else { return }
        // Room first, so that the total never exceeds the limit (nor overflows near Int.max).
        while totalCost > costLimit - cost, let oldest, let key = slots[oldest]?.key {
            removeValue(for: key)
        }
        let slot = Slot(key: key, value: value, cost: cost, newer: nil, older: newest)
        let position: Int
        if let free = freeSlots.popLast() {
            position = free
            slots[free] = slot
        } else {
            position = slots.count
            slots.append(slot)
        }
        if let newest { slots[newest]?.newer = position }
        newest = position
        if oldest == nil { oldest = position }
        positions[key] = position
        totalCost += cost
    }

    /// Removes and returns the value for `key`.
    ///
    /// - Parameter key: The key.
    /// - Returns: The value that was stored for it, if any.
    @discardableResult
    @inlinable
    package mutating func removeValue(for key: Key) -> Value? {
        guard let position = positions.removeValue(forKey: key), let slot = slots[position] else { return nil }
        unlink(position, slot)
        slots[position] = nil
        freeSlots.append(position)
        totalCost -= slot.cost
        return slot.value
    }

    /// Removes everything.
    @inlinable
    package mutating func removeAll() {
        self = LRUCache(costLimit: costLimit)
    }

    @inlinable
    mutating func moveToNewest(_ position: Int) {
        guard newest != position, let slot = slots[position] else { return }
        unlink(position, slot)
        slots[position]?.newer = nil
        slots[position]?.older = newest
        if let newest { slots[newest]?.newer = position }
        newest = position
        if oldest == nil { oldest = position }
    }

    @inlinable
    mutating func unlink(_ position: Int, _ slot: Slot) {
        if let newer = slot.newer { slots[newer]?.older = slot.older } else { newest = slot.older }
        if let older = slot.older { slots[older]?.newer = slot.newer } else { oldest = slot.newer }
    }
}
