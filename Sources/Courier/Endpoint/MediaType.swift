/// Media type matching for `Content-Type` checks, on bytes: it runs for every response.
enum MediaType {
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
    /// or `*/*`); patterns are lowercase.
    static func matches(_ contentType: String, anyOf patterns: [String]) -> Bool {
        let essence = essence(of: contentType)
        for pattern in patterns {
            if pattern == essence || pattern == "*/*" { return true }
            if pattern.hasPrefix("*/*+") {
                let suffix = pattern.utf8.dropFirst(3)  // "+json"
                if essence.utf8.count > suffix.count, essence.utf8.reversed().starts(with: suffix.reversed()) {
                    return true
                }
            } else if pattern.hasSuffix("/*"), essence.utf8.starts(with: pattern.utf8.dropLast()) {
                return true
            }
        }
        return false
    }
}
