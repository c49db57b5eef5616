import Foundation
public import LibraryKit

/// A value that writes its own compact JSON, as `JSONEncoder` would with the same keys (minus
/// the escaped slashes), in a fraction of the time: the service encodes each item once at start.
public protocol JSONRecord {
    /// Appends the value's JSON object to `bytes`.
    func appendJSON(to bytes: inout [UInt8])
}

extension Location: JSONRecord {
    /// `{"street_address":…,"city":…,"country":…,"emoji":…,"hours":…}`.
    public func appendJSON(to bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { object in
            object.member("street_address", streetAddress)
            object.member("city", city)
            object.member("country", country)
            object.member("emoji", emoji)
            object.member("hours", hours)
        }
    }
}

extension Book: JSONRecord {
    /// `{"title":…}`, then `"author"`, `"year"`, `"isbn"` and `"cover_url"` when present.
    public func appendJSON(to bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { object in
            object.member("title", title)
            if let author { object.member("author", author) }
            if let year { object.member("year", year) }
            if let isbn { object.member("isbn", isbn) }
            if let coverURL { object.member("cover_url", coverURL.absoluteString) }
        }
    }
}

/// Writes one JSON object's members, escaping strings as RFC 8259 requires.
package struct JSONObjectWriter {
    private var bytes: [UInt8]
    private var isFirst = true

    /// Appends `{`, the members `body` writes, and `}` to `bytes`.
    package static func write(into bytes: inout [UInt8], _ body: (inout JSONObjectWriter) -> Void) {
        // Swapping moves the buffer in and out without copying it.
        var writer = JSONObjectWriter(bytes: [])
        swap(&writer.bytes, &bytes)
        writer.bytes.append(UInt8(ascii: "{"))
        body(&writer)
        writer.bytes.append(UInt8(ascii: "}"))
        swap(&writer.bytes, &bytes)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        Self.appendString(value, to: &bytes)
    }

    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func key(_ name: StaticString) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        isFirst = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: "\":".utf8)
    }

    /// `string` as a JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else as UTF-8.
    package static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                bytes.append(contentsOf: ("\\u00" + (byte < 0x10 ? "0" : "") + hex).utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
