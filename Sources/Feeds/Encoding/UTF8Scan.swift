import Courier

/// Checking UTF-8 on bytes, eight ASCII bytes at a time.
enum UTF8Scan {
    /// Why a check stopped before the end of its input.
    enum Stop: Equatable {
        /// It reached the end (or checked the scalars asked for).
        case none
        /// The input ends inside a sequence that may still complete.
        case incomplete
        /// The bytes at the stopping point are not UTF-8.
        case invalid
    }

    /// Where the valid UTF-8 from `start` ends, and why; with `scalars`, after that many
    /// non-ASCII scalars at most.
    static func validPrefix(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        scalars: Int = .max
    ) -> (end: Int, stop: Stop) {
        var index = start
        var left = scalars
        while index < bytes.count {
            index = asciiPrefix(bytes, from: index)
            guard index < bytes.count else { break }
            guard left > 0 else { return (index, .none) }
            let lead = bytes[index]
            guard let sequence = UTF8Sequence(lead: lead) else { return (index, .invalid) }
            let (length, second) = (sequence.length, sequence.second)
            let available = min(length, bytes.count - index)
            for offset in 1..<max(available, 1) {
                let next = bytes[index + offset]
                guard offset == 1 ? second.contains(next) : next & 0xC0 == 0x80 else { return (index, .invalid) }
            }
            guard available == length else { return (index, .incomplete) }
            index += length
            left -= 1
        }
        return (index, .none)
    }

    /// Where the run of ASCII bytes from `start` ends.
    static func asciiPrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < bytes.count, bytes[index] < 0x80 { index += 1 }
        return index
    }
}
