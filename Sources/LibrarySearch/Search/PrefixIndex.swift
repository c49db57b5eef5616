/// Positions of items sorted by a folded text key, for prefix lookups in O(log n).
///
/// The keys `SearchKey` folds are kept in one contiguous buffer in sorted order; the items
/// whose key starts with a prefix form one run of that order, found by two binary searches, so
/// a lookup costs O(log n) comparisons and the total comes free with the range.
///
/// ```swift
/// let index = PrefixIndex(keys: ["Dune", "Dubliners", "Emma"])
/// index.range(ofPrefix: "du")  // 0..<2: "Dubliners", "Dune"
/// index.order                  // [1, 0, 2]: positions of the keys given, in sorted order
/// ```
public struct PrefixIndex: Sendable {
    /// The positions of the keys given to ``init(keys:)``, in sorted key order (ties keep the
    /// order they were given in).
    public let order: [Int]
    /// Folded keys, one after another, in sorted order.
    private let keyBytes: [UInt8]
    /// `keyEnds[i]` is where the i-th sorted key ends in `keyBytes`; it starts where the one
    /// before it ends.
    private let keyEnds: [Int]

    /// Folds and sorts `keys`.
    public init(keys: some Collection<String>) {
        let folded = keys.map { SearchKey.fold($0) }
        let order = folded.indices.sorted { left, right in
            let comparison = Self.compare(folded[left][...], folded[right][...])
            return comparison < 0 || (comparison == 0 && left < right)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(folded.reduce(0) { $0 + $1.count })
        var ends: [Int] = []
        ends.reserveCapacity(order.count)
        for position in order {
            bytes.append(contentsOf: folded[position])
            ends.append(bytes.count)
        }
        self.order = order
        self.keyBytes = bytes
        self.keyEnds = ends
    }

    /// The number of keys.
    public var count: Int { keyEnds.count }

    // MARK: - Lookup

    /// The run of sorted positions whose keys start with `prefix`, folded the same way; all of
    /// them for a prefix that folds to nothing.
    public func range(ofPrefix prefix: some StringProtocol) -> Range<Int> {
        range(ofFoldedPrefix: SearchKey.fold(prefix))
    }

    /// The run of sorted positions whose keys start with the already folded `prefix`.
    func range(ofFoldedPrefix prefix: [UInt8]) -> Range<Int> {
        guard !prefix.isEmpty else { return 0..<count }
        return prefix.withUnsafeBufferPointer { prefix in
            keyBytes.withUnsafeBufferPointer { bytes in
                // First key whose first prefix.count bytes are not below the prefix, then the
                // first whose first bytes are above it: between them, exactly the matches.
                let lower = partition(bytes, prefix) { $0 < 0 }
                let upper = partition(bytes, prefix, from: lower) { $0 <= 0 }
                return lower..<upper
            }
        }
    }

    /// The first sorted position at or after `start` where `isBefore(comparison)` turns false,
    /// comparing the key's first prefix.count bytes with the prefix.
    private func partition(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ prefix: UnsafeBufferPointer<UInt8>,
        from start: Int = 0,
        isBefore: (Int) -> Bool
    ) -> Int {
        var low = start
        var high = keyEnds.count
        while low < high {
            let middle = low + (high - low) / 2
            let keyStart = middle == 0 ? 0 : keyEnds[middle - 1]
            let keyLength = min(keyEnds[middle] - keyStart, prefix.count)
            let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<(keyStart + keyLength)])
            if isBefore(Self.compare(key, prefix)) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Lexicographic byte order: negative, zero or positive as `left` sorts before, with or after `right`.
    private static func compare<Bytes: Collection<UInt8>>(_ left: Bytes, _ right: Bytes) -> Int {
        var leftIndex = left.startIndex
        var rightIndex = right.startIndex
        while leftIndex != left.endIndex, rightIndex != right.endIndex {
            let difference = Int(left[leftIndex]) - Int(right[rightIndex])
            if difference != 0 { return difference }
            left.formIndex(after: &leftIndex)
            right.formIndex(after: &rightIndex)
        }
        if leftIndex == left.endIndex { return rightIndex == right.endIndex ? 0 : -1 }
        return 1
    }
}
