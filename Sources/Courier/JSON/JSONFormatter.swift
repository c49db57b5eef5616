import Foundation

/// Pretty-prints (or compacts) JSON text on its bytes, keys sorted, without building values:
/// numbers and strings are copied as written (a 100,000-digit number stays exact; only `\/`
/// becomes `/`), and the output goes out in pieces as it is made.
///
/// ```swift
/// try JSONFormatter.format(Array(body)) { piece in output.write(contentsOf: piece) }
/// ```
///
/// The text is validated first (``JSONSyntax/validate(_:)``: a syntax error or nesting deeper
/// than ``JSONSyntax/maximumDepth`` throws, with its position). Time is linear in the text;
/// besides the text, memory holds the position of every array and object, and each object's
/// member list while it is sorted.
public enum JSONFormatter {
    /// Writes `bytes` formatted: two-space indentation and `"key" : value` (or, `compact`, no
    /// whitespace at all), object keys in Unicode code point order (as `jq -S` sorts them).
    ///
    /// - Parameter write: Receives the output in pieces of about 64 KiB, each ending between
    ///   two tokens (never inside a string or a UTF-8 sequence).
    public static func format(
        _ bytes: [UInt8],
        compact: Bool = false,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) {
        try JSONSyntax.validate(bytes)
        withoutActuallyEscaping(write) { write in
            var writer = Writer(bytes: bytes, compact: compact, write: write)
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            writer.value(at: writer.skipWhitespace(from: start), indent: 0)
            writer.output.append(0x0A)
            writer.flush()
        }
    }

    /// The bytes of the value at `path` in the JSON text, or `nil` when the path leads nowhere.
    ///
    /// - Parameter path: Object keys and array indices (from 0), outermost first.
    /// - Throws: The text's syntax error, when it is not valid JSON.
    public static func value(at path: [String], in bytes: [UInt8]) throws(JSONSyntaxError) -> ArraySlice<UInt8>? {
        try JSONSyntax.validate(bytes)
        guard let start = JSONSyntax.position(of: path, in: bytes)?.offset else { return nil }
        var scanner = Extents(bytes: bytes)
        return bytes[start..<scanner.end(ofValueAt: start)]
    }

    /// The keys and indices of a path such as `results.0.title` or `items[2].name`, for
    /// ``value(at:in:)``; `nil` when the path is malformed or counts from the end (`a[-1]`).
    public static func components(ofPath path: String) -> [String]? {
        guard let parsed = JSONPath(path) else { return nil }
        var components: [String] = []
        for step in parsed.steps {
            switch step {
            case .member(let key):
                // `items.-1` counts from the end of an array, as `items[-1]` does.
                if let index = Int(key), index < 0 { return nil }
                components.append(key)
            case .index(let index) where index >= 0: components.append(String(index))
            case .index: return nil
            }
        }
        return components
    }

    /// The text of a JSON string value, escapes resolved; `nil` when `value` is not a string.
    public static func string(_ value: ArraySlice<UInt8>) -> String? {
        guard value.first == UInt8(ascii: "\"") else { return nil }
        let inner = value.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return Escapes.decode(inner)
    }
}

extension JSONFormatter {
    /// Where values end: a pre-pass records where each array and object closes, so finding the
    /// end of a member (to sort it) costs a binary search, not a rescan.
    struct Extents {
        let bytes: [UInt8]
        /// Opening and closing offsets of every container, by opening offset.
        private var opens: [Int] = []
        private var closes: [Int] = []
        private var measured = false

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func measure() {
            guard !measured else { return }
            measured = true
            var stack: [Int] = []
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = Self.endOfString(bytes, at: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    stack.append(opens.count)
                    opens.append(index)
                    closes.append(index)
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if let open = stack.popLast() { closes[open] = index }
                default:
                    break
                }
                index += 1
            }
        }

        /// The offset just past the value starting at `start`.
        mutating func end(ofValueAt start: Int) -> Int {
            switch bytes[start] {
            case UInt8(ascii: "\""):
                return Self.endOfString(bytes, at: start)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                measure()
                var low = 0
                var high = opens.count
                while low < high {
                    let middle = (low + high) / 2
                    if opens[middle] < start { low = middle + 1 } else { high = middle }
                }
                return closes[low] + 1
            default:
                // A number or a literal: up to the next whitespace or punctuation.
                var index = start
                while index < bytes.count {
                    switch bytes[index] {
                    case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): return index
                    default: index += 1
                    }
                }
                return index
            }
        }

        /// The offset just past the string whose opening quote is at `start`.
        static func endOfString(_ bytes: [UInt8], at start: Int) -> Int {
            var index = start + 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""): return index + 1
                case UInt8(ascii: "\\"): index += 2
                default: index += 1
                }
            }
            return index
        }
    }

    /// Writes a validated text formatted, into `output`, flushed in pieces.
    struct Writer {
        let bytes: [UInt8]
        let compact: Bool
        let write: (ArraySlice<UInt8>) -> Void
        var output: [UInt8] = []
        var extents: Extents

        init(bytes: [UInt8], compact: Bool, write: @escaping (ArraySlice<UInt8>) -> Void) {
            self.bytes = bytes
            self.compact = compact
            self.write = write
            self.extents = Extents(bytes: bytes)
            output.reserveCapacity(1 << 16)
        }

        func skipWhitespace(from start: Int) -> Int {
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return index
                }
            }
            return index
        }

        mutating func flush() {
            write(output[...])
            output.removeAll(keepingCapacity: true)
        }

        private mutating func newline(indent: Int) {
            if output.count >= 1 << 16 { flush() }
            guard !compact else { return }
            output.append(0x0A)
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        }

        /// Writes the value at `start`; returns the offset just past it.
        @discardableResult
        mutating func value(at start: Int, indent: Int) -> Int {
            switch bytes[start] {
            case UInt8(ascii: "{"): return object(at: start, indent: indent)
            case UInt8(ascii: "["): return array(at: start, indent: indent)
            default:
                let end = extents.end(ofValueAt: start)
                if output.count >= 1 << 16 { flush() }
                if bytes[start] == UInt8(ascii: "\""), bytes[start..<end].contains(UInt8(ascii: "\\")) {
                    string(start..<end)
                } else {
                    output.append(contentsOf: bytes[start..<end])
                }
                return end
            }
        }

        /// A string with escapes, `\/` written as `/` (JSON need not escape it); the other
        /// escapes as written.
        private mutating func string(_ range: Range<Int>) {
            var index = range.lowerBound
            while index < range.upperBound {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\"), index + 1 < range.upperBound {
                    let next = bytes[index + 1]
                    if next != UInt8(ascii: "/") { output.append(byte) }
                    output.append(next)
                    index += 2
                } else {
                    output.append(byte)
                    index += 1
                }
            }
        }

        private mutating func array(at start: Int, indent: Int) -> Int {
            var index = skipWhitespace(from: start + 1)
            output.append(UInt8(ascii: "["))
            if bytes[index] == UInt8(ascii: "]") {
                output.append(UInt8(ascii: "]"))
                return index + 1
            }
            var first = true
            while true {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                newline(indent: indent + 2)
                index = skipWhitespace(from: value(at: index, indent: indent + 2))
                if bytes[index] == UInt8(ascii: "]") { break }
                index = skipWhitespace(from: index + 1)  // the comma
            }
            newline(indent: indent)
            output.append(UInt8(ascii: "]"))
            return index + 1
        }

        /// One member: where its key and value start.
        private struct Member {
            var key: Range<Int>
            var value: Int
        }

        private mutating func object(at start: Int, indent: Int) -> Int {
            var index = skipWhitespace(from: start + 1)
            output.append(UInt8(ascii: "{"))
            if bytes[index] == UInt8(ascii: "}") {
                output.append(UInt8(ascii: "}"))
                return index + 1
            }
            var members: [Member] = []
            while true {
                let keyEnd = Extents.endOfString(bytes, at: index)
                let valueStart = skipWhitespace(from: skipWhitespace(from: keyEnd) + 1)  // past the colon
                members.append(Member(key: index..<keyEnd, value: valueStart))
                index = skipWhitespace(from: extents.end(ofValueAt: valueStart))
                if bytes[index] == UInt8(ascii: "}") { break }
                index = skipWhitespace(from: index + 1)  // the comma
            }
            let end = index + 1
            if members.count > 1 { sort(&members) }
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent: indent + 2)
                if bytes[member.key].contains(UInt8(ascii: "\\")) {
                    string(member.key)
                } else {
                    output.append(contentsOf: bytes[member.key])
                }
                if compact {
                    output.append(UInt8(ascii: ":"))
                } else {
                    output.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
                }
                value(at: member.value, indent: indent + 2)
            }
            newline(indent: indent)
            output.append(UInt8(ascii: "}"))
            return end
        }

        /// Orders members by their keys' code points, escapes resolved; equal keys keep their order.
        /// Keys are compared in place; only keys with escapes are decoded, once.
        private func sort(_ members: inout [Member]) {
            var decoded: [Int: [UInt8]] = [:]
            for (index, member) in members.enumerated()
            where bytes[member.key].contains(UInt8(ascii: "\\")) {
                let inner = bytes[(member.key.lowerBound + 1)..<(member.key.upperBound - 1)]
                decoded[index] = Array((Escapes.decode(inner) ?? "").utf8)
            }
            let order = bytes.withUnsafeBufferPointer { buffer in
                func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                    let range = members[index].key
                    return UnsafeBufferPointer(rebasing: buffer[(range.lowerBound + 1)..<(range.upperBound - 1)])
                }
                func precedes(_ left: Int, _ right: Int) -> Bool {
                    let ordered: Bool
                    let equal: Bool
                    switch (decoded[left], decoded[right]) {
                    case (nil, nil):
                        let (a, b) = (key(left), key(right))
                        var common: Int32 = 0
                        if let first = a.baseAddress, let second = b.baseAddress {
                            common = memcmp(first, second, min(a.count, b.count))
                        }
                        ordered = common < 0 || (common == 0 && a.count < b.count)
                        equal = common == 0 && a.count == b.count
                    case (let a, let b):
                        let first = a.map { $0[...] } ?? Array(key(left))[...]
                        let second = b.map { $0[...] } ?? Array(key(right))[...]
                        ordered = first.lexicographicallyPrecedes(second)
                        equal = first == second
                    }
                    return ordered || (equal && left < right)
                }
                return members.indices.sorted(by: precedes)
            }
            members = order.map { members[$0] }
        }
    }

    /// JSON string escapes, resolved.
    enum Escapes {
        /// The text of a string's inside (between its quotes), in one pass: the decoded UTF-8
        /// is collected in one buffer and made a `String` once.
        static func decode(_ inner: ArraySlice<UInt8>) -> String? {
            var utf8: [UInt8] = []
            utf8.reserveCapacity(inner.count)
            func append(_ scalar: Unicode.Scalar) {
                UTF8.encode(scalar) { utf8.append($0) }
            }
            var index = inner.startIndex
            while index < inner.endIndex {
                let byte = inner[index]
                guard byte == UInt8(ascii: "\\"), index + 1 < inner.endIndex else {
                    utf8.append(byte)
                    index += 1
                    continue
                }
                let escape = inner[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hex(inner, at: index) else { return nil }
                    index += 4
                    if (0xD800..<0xDC00).contains(unit), inner[index...].starts(with: [0x5C, 0x75]),
                        let low = hex(inner, at: index + 2), (0xDC00..<0xE000).contains(low)
                    {
                        index += 6
                        append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}")
                    } else {
                        append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                    }
                default: utf8.append(escape)
                }
            }
            return String(decoding: utf8, as: UTF8.self)
        }

        private static func hex(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32? {
            guard index + 4 <= bytes.endIndex else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}
