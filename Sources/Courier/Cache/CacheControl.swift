/// The directives of a message's `Cache-Control` fields (RFC 9111 §5.2), as a private cache
/// reads them. The rule for each value RFC 9111 leaves open, and what browsers do with it, is
/// in the parsing table of the article <doc:CachingResponses>.
///
/// Parsing follows the field's grammar: directive names are case-insensitive, arguments are
/// tokens or quoted strings (`no-cache="Set-Cookie, X-Id"` is one directive), several fields
/// count as one list. For a directive given twice, the first wins; a freshness directive with
/// an argument that is not delta-seconds makes ``hasInvalidFreshness`` true, and the response
/// is then to be treated as stale (RFC 9111 §4.2.1).
package struct CacheControl: Sendable, Equatable {
    /// `max-age`: fresh for this many seconds (response), or the oldest answer accepted (request).
    var maxAge: Int?
    /// `s-maxage`: for shared caches only; a private cache ignores it.
    var sharedMaxAge: Int?
    /// `max-stale`: the request accepts stale answers, by at most this many seconds
    /// (`Int.max` when no limit is given).
    var maxStale: Int?
    /// `min-fresh`: the request wants answers fresh for at least this many more seconds.
    var minFresh: Int?
    /// `stale-while-revalidate` (RFC 5861).
    var staleWhileRevalidate: Int?
    /// `stale-if-error` (RFC 5861).
    var staleIfError: Int?
    /// `no-cache` without field names (in any of its occurrences): a stored response must be
    /// validated before each use.
    var noCache = false
    /// `no-cache="Field, …"` (RFC 9111 §5.2.2.4): the response may be reused, but the named
    /// header fields (lowercased) only after it has been validated.
    var noCacheFields: Set<String> = []
    /// `private="Field, …"` (§5.2.2.7): the named fields (lowercased) are for this user only.
    /// A private cache stores them, and reuses them as it does `no-cache` fields.
    var privateFields: Set<String> = []
    /// `no-store`: nothing of this exchange may be stored.
    var noStore = false
    /// `private`: for a private cache, the same as no directive.
    var isPrivate = false
    /// `public`: storable even where it would not be by default (for example with `Authorization`).
    var isPublic = false
    /// `must-revalidate`: once stale, never used without successful validation.
    var mustRevalidate = false
    /// `proxy-revalidate`: `must-revalidate` for shared caches; a private cache still never
    /// serves it stale on an error.
    var proxyRevalidate = false
    /// `immutable` (RFC 8246): a fresh response will not change; no need to revalidate on reload.
    var immutable = false
    /// `only-if-cached`: the request wants a stored response or a 504, never the network.
    var onlyIfCached = false
    /// A freshness directive (`max-age`, `s-maxage`) carried an argument that is not delta-seconds.
    var hasInvalidFreshness = false

    /// The largest delta-seconds a cache keeps (RFC 9111 §1.2.2): larger values mean "as long as possible".
    static let maximumDeltaSeconds = 2_147_483_648

    /// The directives of all `values` (each one `Cache-Control` field line).
    init(_ values: some Sequence<some StringProtocol>) {
        var seen: Set<String> = []
        for value in values {
            for (name, argument) in Self.directives(in: value) {
                // no-cache and private only ever add restrictions, so every occurrence counts;
                // for the others the first wins.
                guard seen.insert(name).inserted || name == "no-cache" || name == "private" else { continue }
                apply(name, argument)
            }
        }
    }

    /// No directives.
    init() {}

    private mutating func apply(_ name: String, _ argument: String?) {
        switch name {
        case "max-age": maxAge = deltaSeconds(argument, isFreshness: true)
        case "s-maxage": sharedMaxAge = deltaSeconds(argument, isFreshness: true)
        case "max-stale": maxStale = argument == nil ? Int.max : deltaSeconds(argument, isFreshness: false)
        case "min-fresh": minFresh = deltaSeconds(argument, isFreshness: false)
        case "stale-while-revalidate": staleWhileRevalidate = deltaSeconds(argument, isFreshness: false)
        case "stale-if-error": staleIfError = deltaSeconds(argument, isFreshness: false)
        case "no-cache":
            let names = Self.fieldNames(argument)
            noCache = noCache || names.isEmpty
            noCacheFields.formUnion(names)
        case "no-store": noStore = true
        case "private":
            isPrivate = true
            privateFields.formUnion(Self.fieldNames(argument))
        case "public": isPublic = true
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "immutable": immutable = true
        case "only-if-cached": onlyIfCached = true
        default: break
        }
    }

    /// `no-cache` in any form: what a request's `no-cache` means, since field names qualify it
    /// only in a response.
    var hasNoCache: Bool { noCache || !noCacheFields.isEmpty }

    /// The header fields a stored response may give only once it has been validated: those
    /// `no-cache` and `private` name.
    var fieldsWithheldUntilValidated: Set<String> { noCacheFields.union(privateFields) }

    /// The field names of a directive's argument, lowercased; none for no argument or an
    /// empty one, which leaves the directive unqualified.
    private static func fieldNames(_ argument: String?) -> [String] {
        guard let argument else { return [] }
        return argument.split(separator: ",").map { String($0).trimmingSpaces().lowercased() }
            .filter { !$0.isEmpty }
    }

    /// `1*DIGIT`, capped at ``maximumDeltaSeconds``; `nil` (and, for freshness, a note that the
    /// message is to be treated as stale) for anything else.
    private mutating func deltaSeconds(_ argument: String?, isFreshness: Bool) -> Int? {
        guard let argument, !argument.isEmpty,
            argument.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            if isFreshness { hasInvalidFreshness = true }
            return nil
        }
        return Int(argument).map { min($0, Self.maximumDeltaSeconds) } ?? Self.maximumDeltaSeconds
    }

    /// `(name, argument)` pairs of one field value: names lowercased, quoted arguments unquoted.
    package static func directives(in value: some StringProtocol) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var bytes = Substring(value).utf8[...]
        func skipSpaces() {
            while let byte = bytes.first, byte == 0x20 || byte == 0x09 { bytes.removeFirst() }
        }
        while !bytes.isEmpty {
            skipSpaces()
            let name = bytes.prefix { $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: ",") }
            bytes.removeFirst(name.count)
            var argument: String?
            if bytes.first == UInt8(ascii: "=") {
                bytes.removeFirst()
                skipSpaces()
                if bytes.first == UInt8(ascii: "\"") {
                    bytes.removeFirst()
                    var text: [UInt8] = []
                    while let byte = bytes.first, byte != UInt8(ascii: "\"") {
                        bytes.removeFirst()
                        if byte == UInt8(ascii: "\\"), let escaped = bytes.first {
                            text.append(escaped)
                            bytes.removeFirst()
                        } else {
                            text.append(byte)
                        }
                    }
                    if !bytes.isEmpty { bytes.removeFirst() }
                    argument = String(decoding: text, as: UTF8.self)
                    bytes = bytes.drop { $0 != UInt8(ascii: ",") }
                } else {
                    let token = bytes.prefix { $0 != UInt8(ascii: ",") }
                    bytes.removeFirst(token.count)
                    argument = String(decoding: token, as: UTF8.self).trimmingSpaces()
                }
            }
            if !bytes.isEmpty { bytes.removeFirst() }  // the comma
            let trimmedName = String(decoding: name, as: UTF8.self).trimmingSpaces().lowercased()
            if !trimmedName.isEmpty { result.append((trimmedName, argument)) }
        }
        return result
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (optional whitespace in HTTP fields).
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
