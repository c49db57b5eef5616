import Courier
import Foundation

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

    /// Writes a validated value formatted with its objects' keys sorted, into `output`, flushed
    /// in pieces. It reads the value whole: ``JSONFormatter`` hands it each outermost object.
    struct SortedWriter {
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
}
