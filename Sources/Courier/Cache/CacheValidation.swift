import Foundation
import HTTPTypes

/// Revalidating a stored response with the origin (RFC 9111 §4.3).
enum CacheValidation {
    /// Header fields a 304 never replaces in a stored response: they describe the stored body's
    /// framing or the connection, not the resource (RFC 9111 §3.1, §3.2). `Content-Encoding`
    /// too: the stored body is as the transport handed it over, decoded, and a 304 that repeats
    /// the coding of the bytes it stands for must not label the stored body with it.
    private static let keptFromStored: Set<HTTPField.Name> = [
        .contentLength, .connection, .transferEncoding, .upgrade, .keepAlive, .proxyConnection,
        .te, .trailer, .contentRange, .contentEncoding,
    ]

    /// `If-None-Match` with the stored entity tag and `If-Modified-Since` with its
    /// `Last-Modified`, whichever it has (§4.3.1); empty when it has neither.
    static func conditionalFields(for stored: HTTPResponse) -> HTTPFields {
        var fields = HTTPFields()
        if let tag = stored.headerFields[.eTag] { fields[.ifNoneMatch] = tag }
        if let lastModified = stored.headerFields[.lastModified] { fields[.ifModifiedSince] = lastModified }
        return fields
    }

    /// Whether the caller's own `If-None-Match` (weak comparison, `*` for any) or, without one,
    /// `If-Modified-Since` holds for `stored`, so that a cache answers 304 (RFC 9110 §13.1.1,
    /// §13.1.3; RFC 9111 §4.3.2). Requests without conditions, and stored responses that are
    /// not successes, never match.
    static func conditionsHold(in request: HTTPRequest, for stored: HTTPResponse) -> Bool {
        // Preconditions apply only where the response would be a success (RFC 9110 §13.2.1).
        guard request.method == .get || request.method == .head, (200..<300).contains(stored.status.code) else {
            return false
        }
        let tags = request.headerFields[values: .ifNoneMatch]
        if !tags.isEmpty {
            guard let storedTag = stored.headerFields[.eTag] else { return false }
            return tags.lazy.flatMap { $0.split(separator: ",") }.contains { candidate in
                let candidate = candidate.trimmingCharacters(in: .whitespaces)
                return candidate == "*" || weakTag(candidate) == weakTag(storedTag)
            }
        }
        guard let since = request.headerFields[.ifModifiedSince].flatMap(HTTPDate.parse),
            let modified = (stored.headerFields[.lastModified] ?? stored.headerFields[.date]).flatMap(HTTPDate.parse)
        else { return false }
        return modified <= since
    }

    /// Whether a 304 applies to `stored` (§4.3.4): its strong entity tag equals the stored one;
    /// or, without one, its `Last-Modified` equals the stored one; or, with neither, the stored
    /// response has no validators of its own either.
    static func notModified(_ notModified: HTTPResponse, applies stored: HTTPResponse) -> Bool {
        if let tag = notModified.headerFields[.eTag], !tag.hasPrefix("W/") {
            return stored.headerFields[.eTag] == tag
        }
        if let lastModified = notModified.headerFields[.lastModified] {
            return stored.headerFields[.lastModified] == lastModified
        }
        if let tag = notModified.headerFields[.eTag] {
            return stored.headerFields[.eTag].map { weakTag($0) == weakTag(tag) } ?? false
        }
        return stored.headerFields[.eTag] == nil && stored.headerFields[.lastModified] == nil
    }

    /// The stored response with its header fields freshened from a 304 (§3.2): each field the
    /// 304 carries replaces the stored lines of that name, except framing and connection fields.
    /// `Age` always comes from the 304: the stored response's age starts again from it. A weak
    /// entity tag in the 304 that names the stored strong one does not replace it: the stored
    /// bytes are still the ones the strong tag names, and ranges and parts depend on it.
    static func updating(_ stored: HTTPResponse, with notModified: HTTPResponse) -> HTTPResponse {
        var updated = stored
        updated.headerFields[.age] = notModified.headerFields[.age]
        var replaced: Set<HTTPField.Name> = []
        for field in notModified.headerFields where !keptFromStored.contains(field.name) {
            if replaced.insert(field.name).inserted {
                updated.headerFields[values: field.name] = notModified.headerFields[values: field.name]
            }
        }
        if let storedTag = stored.headerFields[.eTag], !storedTag.hasPrefix("W/"),
            let newTag = notModified.headerFields[.eTag], newTag.hasPrefix("W/"), weakTag(newTag) == weakTag(storedTag)
        {
            updated.headerFields[.eTag] = storedTag
        }
        return updated
    }

    // MARK: - Strong validators (RFC 9110 §8.8.1, §13.1.5)

    /// The validator that names exactly the stored bytes, for `If-Range`: a strong entity tag,
    /// else a `Last-Modified` that is strong, else `nil`.
    static func strongValidator(of stored: HTTPResponse) -> String? {
        if let tag = stored.headerFields[.eTag], !tag.hasPrefix("W/") { return tag }
        guard let lastModified = stored.headerFields[.lastModified], hasStrongLastModified(stored) else { return nil }
        return lastModified
    }

    /// Whether `new` is the same representation as `stored`, by a strong validator both carry,
    /// so that their parts may be combined (RFC 9111 §3.4).
    static func sameRepresentation(_ new: HTTPResponse, _ stored: HTTPResponse) -> Bool {
        let newTag = new.headerFields[.eTag]
        let storedTag = stored.headerFields[.eTag]
        if newTag != nil || storedTag != nil {
            guard let newTag, !newTag.hasPrefix("W/") else { return false }
            return newTag == storedTag
        }
        guard let lastModified = new.headerFields[.lastModified], hasStrongLastModified(new),
            let storedLastModified = stored.headerFields[.lastModified]
        else { return false }
        return HTTPDate.parse(lastModified) == HTTPDate.parse(storedLastModified)
    }

    /// Whether the request's `If-Range` (RFC 9110 §13.1.5) holds for `stored`: an entity tag
    /// equal to its strong tag, or a date equal to its `Last-Modified` where that is strong.
    /// A request without `If-Range` holds.
    static func ifRangeHolds(in request: HTTPRequest, for stored: HTTPResponse) -> Bool {
        guard let value = request.headerFields[.ifRange]?.trimmingCharacters(in: .whitespaces) else { return true }
        if value.hasPrefix("\"") {
            guard let tag = stored.headerFields[.eTag], !tag.hasPrefix("W/") else { return false }
            return tag == value
        }
        guard !value.hasPrefix("W/"), let date = HTTPDate.parse(value),
            let lastModified = stored.headerFields[.lastModified].flatMap(HTTPDate.parse)
        else { return false }
        return date == lastModified && hasStrongLastModified(stored)
    }

    /// A `Last-Modified` is strong for a cache when the response's `Date` is at least a minute
    /// later (RFC 9110 §8.8.2.2): the representation cannot have changed twice in its second.
    private static func hasStrongLastModified(_ response: HTTPResponse) -> Bool {
        guard let lastModified = response.headerFields[.lastModified].flatMap(HTTPDate.parse),
            let date = response.headerFields[.date].flatMap(HTTPDate.parse)
        else { return false }
        return date.timeIntervalSince(lastModified) >= 60
    }

    private static func weakTag(_ tag: some StringProtocol) -> Substring {
        let tag = Substring(tag)
        return tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}

extension HTTPField.Name {
    // Each literal is a valid field-name token, so the initializer cannot return nil.
    fileprivate static let keepAlive = HTTPField.Name("Keep-Alive")!
    fileprivate static let proxyConnection = HTTPField.Name("Proxy-Connection")!
}
