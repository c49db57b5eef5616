#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte-level searches and classes the XML tokenizer and the HTML-to-text conversion share.
package enum ByteScan {
    /// The first `byte` in `bytes` at or after `start` (memchr).
    package static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The first `byte` in `bytes` at or after `start`.
    package static func index(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { index(of: byte, in: $0, from: start) }
    }

    /// Where `pattern` first starts in `bytes` at or after `start`.
    package static func index(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = pattern.first else { return start }
        var index = start
        while let found = self.index(of: first, in: bytes, from: index) {
            guard found + pattern.count <= bytes.count else { return nil }
            if bytes[found..<(found + pattern.count)].elementsEqual(pattern) { return found }
            index = found + 1
        }
        return nil
    }

    /// Where `pattern` first starts in `bytes` at or after `start`.
    package static func index(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { index(of: pattern, in: $0, from: start) }
    }

    /// XML white space: space, tab, line feed, carriage return.
    @inlinable
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A byte that may start an XML name (any non-ASCII byte counts).
    @inlinable
    package static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    /// A byte of an XML name.
    @inlinable
    package static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    @inlinable
    package static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// An ASCII letter or digit.
    @inlinable
    package static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || isDigit(byte)
    }

    /// An ASCII letter in lowercase; any other byte as it is.
    @inlinable
    package static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
