import Foundation
import HTTPTypes

/// Revalidating a stored response with the origin (RFC 9111 §4.3).
enum CacheValidation {
    /// Header fields a 304 never replaces in a stored response: they describe the stored body's
    /// framing or the connection, not the resource (RFC 9111 §3.1, §3.2).
    private static let keptFromStored: Set<HTTPField.Name> = [
        .contentLength, .connection, .transferEncoding, .upgrade, .keepAlive, .proxyConnection,
        .te, .trailer,
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
    /// `Age` always comes from the 304: the stored response's age starts again from it.
    static func updating(_ stored: HTTPResponse, with notModified: HTTPResponse) -> HTTPResponse {
        var updated = stored
        updated.headerFields[.age] = notModified.headerFields[.age]
        var replaced: Set<HTTPField.Name> = []
        for field in notModified.headerFields where !keptFromStored.contains(field.name) {
            if replaced.insert(field.name).inserted {
                updated.headerFields[values: field.name] = notModified.headerFields[values: field.name]
            }
        }
        return updated
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
