/// `Content-Range: bytes first-last/total` (RFC 9110 §14.4); `total` is `nil` for `*`. Numbers
/// are ASCII digits only (no sign), `first ≤ last < total`, and `last` leaves room to count one
/// byte past it: no value a server sends can make the arithmetic on it overflow.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    var total: Int64?

    init?(_ value: String) {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1)
        let bounds = rangeAndTotal.first?.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false) ?? []
        guard rangeAndTotal.count == 2, bounds.count == 2, let first = Self.number(bounds[0]),
            let last = Self.number(bounds[1]), first <= last, last < Int64.max
        else { return nil }
        self.first = first
        self.last = last
        if rangeAndTotal[1] == "*" {
            self.total = nil
        } else {
            guard let total = Self.number(rangeAndTotal[1]), total > last else { return nil }
            self.total = total
        }
    }

    /// A non-negative decimal of ASCII digits that fits in `Int64`.
    static func number(_ text: some StringProtocol) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
    }
}

extension ContentRange: CustomStringConvertible {
    /// The bytes `range` of a representation of `total` bytes.
    init(_ range: Range<Int>, of total: Int) {
        first = Int64(range.lowerBound)
        last = Int64(range.upperBound) - 1
        self.total = Int64(total)
    }

    /// `bytes first-last/total`, as the field is written.
    var description: String { "bytes \(first)-\(last)/\(total.map(String.init) ?? "*")" }

    /// The bytes it covers, as offsets that fit `Int`.
    var offsets: Range<Int> { Int(first)..<(Int(last) + 1) }
}
