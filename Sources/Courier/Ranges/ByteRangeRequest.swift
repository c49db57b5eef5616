/// A `Range` request field of byte ranges (RFC 9110 §14.1.2), as a cache answers it.
///
/// A field that is not a valid byte range set (another unit, a range that ends before it
/// starts, anything but digits) is `nil`, and a request carrying it is answered whole (RFC 9110
/// §14.2 lets a server ignore it). Positions too large for `Int` are kept as `Int.max`: they are
/// still positions, past the end of any representation.
struct ByteRangeRequest: Sendable, Equatable {
    /// One `range-spec`.
    enum Spec: Sendable, Equatable {
        /// `first-pos "-" [ last-pos ]`: from `first` to `last`, or to the end.
        case span(first: Int, last: Int?)
        /// `"-" suffix-length`: the last `length` bytes.
        case suffix(length: Int)
    }

    /// What a range request asks of a representation of a known length.
    enum Selection: Sendable, Equatable {
        /// These bytes: a 206.
        case bytes(Range<Int>)
        /// No byte the representation has: a 416.
        case unsatisfiable
        /// The whole representation, a 200: several ranges (which the cache does not split
        /// into a multipart answer), or a suffix of an empty one.
        case whole
    }

    /// The ranges, in the order given.
    var specs: [Spec]

    /// The ranges of a `Range` field value; `nil` when it is not a valid byte range set.
    init?(_ value: some StringProtocol) {
        let value = Substring(value)
        guard let equals = value.firstIndex(of: "="),
            value[..<equals].lowercased() == "bytes"
        else { return nil }
        var specs: [Spec] = []
        for element in value[value.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false) {
            var text = element
            while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
            while let last = text.last, last == " " || last == "\t" { text.removeLast() }
            if text.isEmpty { continue }  // an empty list element (RFC 9110 §5.6.1)
            guard let spec = Self.spec(text) else { return nil }
            specs.append(spec)
        }
        guard !specs.isEmpty else { return nil }
        self.specs = specs
    }

    /// What the ranges select in a representation of `length` bytes (RFC 9110 §14.1.2).
    func selection(length: Int) -> Selection {
        guard specs.count == 1, length >= 0 else { return .whole }
        switch specs[0] {
        case .span(let first, let last):
            guard first < length else { return .unsatisfiable }
            return .bytes(first..<(min(last ?? .max, length - 1) + 1))
        case .suffix(let count):
            guard count > 0 else { return .unsatisfiable }
            guard length > 0 else { return .whole }
            return .bytes((length - min(count, length))..<length)
        }
    }

    private static func spec(_ text: Substring) -> Spec? {
        guard let dash = text.firstIndex(of: "-") else { return nil }
        let before = text[..<dash]
        let after = text[text.index(after: dash)...]
        if before.isEmpty {
            return position(after).map { .suffix(length: $0) }
        }
        guard let first = position(before) else { return nil }
        if after.isEmpty { return .span(first: first, last: nil) }
        guard let last = position(after), last >= first else { return nil }
        return .span(first: first, last: last)
    }

    /// `1*DIGIT`, as `Int.max` when larger.
    private static func position(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text) ?? .max
    }
}
