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
            let (length, second) = sequence(lead: lead)
            guard length > 0 else { return (index, .invalid) }
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

    /// The length of the sequence `lead` starts (2 to 4; 0 when it starts none) and the range
    /// its second byte must be in (RFC 3629: no overlongs, no surrogates, nothing above
    /// U+10FFFF); later bytes are 0x80...0xBF.
    static func sequence(lead: UInt8) -> (length: Int, second: ClosedRange<UInt8>) {
        switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: (0, 0...0)
        }
    }
}
