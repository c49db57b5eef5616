import Foundation
import HTTPTypes

/// What a private cache may store and which stored response answers which request
/// (RFC 9111 §3 and §4.1).
enum CacheRules {
    /// Statuses whose responses a cache understands well enough to store: final ones, but not
    /// a bare 304, which only updates stored responses, nor a 416, which answers one range and
    /// not the URL. A 206 is stored as a part (RFC 9111 §3.3), and only when its
    /// `Content-Range` and validator allow that.
    private static func isStorableStatus(_ code: Int) -> Bool {
        (200..<600).contains(code) && code != 304 && code != 416
    }

    /// Whether `response` to `request` may be stored (RFC 9111 §3): a GET or HEAD, a final status,
    /// no `no-store` on either side, not `Vary: *`, an `Authorization` request only when the
    /// response allows it, and something that gives the response a freshness lifetime or a
    /// validator: `max-age`, `Expires`, `public`, a heuristically cacheable status, or `no-cache`
    /// (stored to be revalidated).
    static func isStorable(request: HTTPRequest, response: HTTPResponse) -> Bool {
        guard request.method == .get || request.method == .head, isStorableStatus(response.status.code) else {
            return false
        }
        let requestControl = CacheControl(request.headerFields[values: .cacheControl])
        let responseControl = CacheControl(response.headerFields[values: .cacheControl])
        guard !requestControl.noStore, !responseControl.noStore else { return false }
        guard varyingFieldNames(of: response) != nil else { return false }
        if request.headerFields[.authorization] != nil, !mayStoreForCredentials(response) { return false }
        return responseControl.maxAge != nil || response.headerFields[.expires] != nil || responseControl.isPublic
            || responseControl.hasNoCache || responseControl.hasInvalidFreshness
            || Freshness.heuristicallyCacheableStatuses.contains(response.status.code)
    }

    /// Whether a response to a request that carried credentials (`Authorization`, a cookie
    /// store's cookies) may be stored: when it says so with `public`, `must-revalidate` or
    /// `s-maxage` (RFC 9111 §3.5).
    static func mayStoreForCredentials(_ response: HTTPResponse) -> Bool {
        let control = CacheControl(response.headerFields[values: .cacheControl])
        return control.isPublic || control.mustRevalidate || control.sharedMaxAge != nil
    }

    /// The request field names a response varies on, lowercased; `nil` for `Vary: *`, which no
    /// later request can match.
    static func varyingFieldNames(of response: HTTPResponse) -> [String]? {
        var names: [String] = []
        for value in response.headerFields[values: .vary] {
            for name in value.split(separator: ",") {
                let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
                if trimmed == "*" { return nil }
                if !trimmed.isEmpty, !names.contains(trimmed) { names.append(trimmed) }
            }
        }
        return names.sorted()
    }

    /// The values of the `names` fields in `request`, normalised (each field's lines joined with
    /// ", ", runs of spaces collapsed), `nil` for an absent field: what a stored variant is
    /// matched on (RFC 9111 §4.1).
    static func selectingValues(for names: [String], in request: HTTPRequest) -> [String: String?] {
        var values: [String: String?] = [:]
        for name in names {
            guard let fieldName = HTTPField.Name(name) else {
                values[name] = .some(nil)
                continue
            }
            let lines = request.headerFields[values: fieldName]
            values[name] = lines.isEmpty ? .some(nil) : .some(normalized(lines.joined(separator: ", ")))
        }
        return values
    }

    private static func normalized(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            .replacingOccurrences(of: " ,", with: ",").replacingOccurrences(of: ", ", with: ",")
    }
}
