import Courier
import Foundation

extension JSONFormatter {
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
