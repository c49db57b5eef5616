import Foundation
import HTTPTypes

/// How old a stored response is and how long it stays fresh (RFC 9111 §4.2), for a private cache.
struct Freshness: Sendable, Equatable {
    /// How long the response is fresh from its creation at the origin, in seconds.
    var lifetime: Double
    /// How old the response is now, in seconds.
    var currentAge: Double

    /// Whether the response may be used without validation.
    var isFresh: Bool { lifetime > currentAge }

    /// Seconds the response is past its freshness lifetime (0 while fresh).
    var staleness: Double { max(0, currentAge - lifetime) }

    /// Statuses a cache may give heuristic freshness to (RFC 9110 §15.1, "heuristically cacheable").
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The fraction of the time since `Last-Modified` used as heuristic freshness (RFC 9111 §4.2.2).
    static let heuristicFraction = 0.1

    /// The freshness of a response received at `responseTime` for a request sent at
    /// `requestTime`, judged at `now`.
    init(response: HTTPResponse, requestTime: Date, responseTime: Date, now: Date) {
        let fields = response.headerFields
        let control = CacheControl(fields[values: .cacheControl])
        let date = fields[.date].flatMap(HTTPDate.parse) ?? responseTime

        // Age (§4.2.3): the larger of what the clocks say and what the Age field says, plus
        // the time the request was on the way and the time the response has been stored.
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let ageValue = Self.firstMember(of: fields[values: .age]).flatMap(Self.deltaSeconds) ?? 0
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        currentAge = correctedInitialAge + max(0, now.timeIntervalSince(responseTime))

        // Lifetime (§4.2.1): max-age, else Expires − Date, else the heuristic; invalid or
        // conflicting freshness information makes the response stale.
        if control.hasInvalidFreshness {
            lifetime = 0
        } else if let maxAge = control.maxAge {
            lifetime = Double(maxAge)
        } else if let expiresValue = fields[values: .expires].first {
            // An Expires that is not a valid date ("0") means already expired; of several
            // Expires lines the first counts, as in Chrome and Firefox (RFC 9111 §4.2.1).
            let expires = HTTPDate.parse(expiresValue)
            lifetime = expires.map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if let lastModified = fields[.lastModified].flatMap(HTTPDate.parse),
            Self.heuristicallyCacheableStatuses.contains(response.status.code) || control.isPublic
        {
            lifetime = max(0, date.timeIntervalSince(lastModified)) * Self.heuristicFraction
        } else {
            lifetime = 0
        }
    }

    /// The first member of a field that should be a singleton: its first line, up to a comma
    /// (RFC 9111 §5.1 for `Age`).
    private static func firstMember(of lines: [String]) -> Substring? {
        lines.first.map { $0.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)[0] }
    }

    /// A non-negative whole number of seconds, capped as delta-seconds are.
    private static func deltaSeconds(_ text: Substring) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Double(min(Int(trimmed) ?? CacheControl.maximumDeltaSeconds, CacheControl.maximumDeltaSeconds))
    }
}
