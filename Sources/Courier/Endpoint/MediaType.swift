import Foundation

/// Media type matching for `Content-Type` checks.
enum MediaType {
    /// The types a JSON endpoint accepts. Real APIs label JSON in all of these ways (iTunes
    /// Search answers `text/javascript`), so only types that are clearly something else, like
    /// `text/html`, are refused.
    static let jsonLike = [
        "application/json", "*/*+json", "text/json", "text/javascript", "application/javascript",
        "application/x-javascript", "text/plain",
    ]

    /// The essence of a `Content-Type` value: `type/subtype`, lowercased, without parameters.
    static func essence(of contentType: String) -> String {
        let end = contentType.firstIndex(of: ";") ?? contentType.endIndex
        return contentType[..<end].trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether `contentType` matches one of `patterns` (`type/subtype`, `type/*` or `*/*+suffix`).
    static func matches(_ contentType: String, anyOf patterns: [String]) -> Bool {
        let essence = essence(of: contentType)
        return patterns.contains { pattern in
            if pattern == essence || pattern == "*/*" { return true }
            if pattern.hasPrefix("*/*+") { return essence.hasSuffix("+" + pattern.dropFirst(4)) }
            if pattern.hasSuffix("/*") { return essence.hasPrefix(pattern.dropLast()) }
            return false
        }
    }
}
