import Foundation

/// Media type matching for `Content-Type` checks, on bytes: it runs for every response.
package enum MediaType {
    /// The types a JSON endpoint accepts. Real APIs label JSON in all of these ways (iTunes
    /// Search answers `text/javascript`), so only types that are clearly something else, like
    /// `text/html`, are refused.
    static let jsonLike = [
        "application/json", "*/*+json", "text/json", "text/javascript", "application/javascript",
        "application/x-javascript", "text/plain",
    ]

    /// The essence of a `Content-Type` value: `type/subtype`, lowercased, without parameters or
    /// surrounding whitespace.
    static func essence(of contentType: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(contentType.utf8.count)
        for byte in contentType.utf8 {
            if byte == UInt8(ascii: ";") { break }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `contentType` matches one of `patterns` (`type/subtype`, `type/*`, `*/*+suffix`
    /// or `*/*`), ignoring case and parameters. Compares bytes in place: it runs for every response.
    package static func matches(_ contentType: String, anyOf patterns: [String]) -> Bool {
        var essence = Substring(contentType).utf8[...]
        if let semicolon = essence.firstIndex(of: UInt8(ascii: ";")) { essence = essence[..<semicolon] }
        while let first = essence.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            essence = essence.dropFirst()
        }
        while let last = essence.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            essence = essence.dropLast()
        }
        for pattern in patterns {
            let bytes = pattern.utf8
            if pattern == "*/*" { return true }
            if pattern.hasPrefix("*/*+") {
                let suffix = bytes.dropFirst(3)  // "+json"
                if essence.count > suffix.count, equalIgnoringCase(essence.suffix(suffix.count), suffix) { return true }
            } else if pattern.hasSuffix("/*") {
                let prefix = bytes.dropLast()  // "text/"
                if essence.count > prefix.count, equalIgnoringCase(essence.prefix(prefix.count), prefix) { return true }
            } else if equalIgnoringCase(essence, bytes) {
                return true
            }
        }
        return false
    }

    /// The `boundary` parameter of a multipart `Content-Type`, when it is a valid one (1 to
    /// 70 characters, RFC 2046 §5.1.1).
    static func boundary(in contentType: String) -> String? {
        guard let boundary = parameter("boundary", in: contentType), (1...70).contains(boundary.utf8.count) else {
            return nil
        }
        return boundary
    }

    /// The value of the parameter `name` (lowercase) in a header value of the form
    /// `token; name=value; name="quoted value"`, quotes removed.
    static func parameter(_ name: String, in value: String) -> String? {
        for part in value.split(separator: ";").dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let key = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard key == name else { continue }
            var result = Substring(part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            if result.count >= 2, result.first == "\"", result.last == "\"" { result = result.dropFirst().dropLast() }
            return String(result)
        }
        return nil
    }

    /// ASCII case-insensitive equality; `pattern` is lowercase.
    private static func equalIgnoringCase(_ value: some Collection<UInt8>, _ pattern: some Collection<UInt8>) -> Bool {
        value.count == pattern.count
            && zip(value, pattern).allSatisfy { byte, expected in
                (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == expected
            }
    }
}
