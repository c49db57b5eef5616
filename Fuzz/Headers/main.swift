// libFuzzer harness: the header parsers of Sources/Courier — Cache-Control
// (Cache/CacheControl.swift), Retry-After (Errors/RetryAfter.swift) and HTTP dates
// (Cache/HTTPDate.swift), media types (Endpoint/MediaType.swift), Content-Range and Range
// (Ranges/) with the parts a cache joins (Cache/PartialContent.swift), and redaction of
// header values and bodies (Security/Redaction*.swift), which reads responses as they come;
// and cookies (Cookies/): Set-Cookie fields, their dates, the fields Foundation joins, cookie
// files and public suffix rules; and the recorded origins a replay rewrites in what it sends
// (Sources/CourierCassettes/RecordedOrigins.swift).
//
// Built into the Courier module's own sources (internal types are reachable); HTTPTypes and
// Logging are linked from the package's debug build.
import Foundation

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let value = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)

    // Cache-Control: one field line, and the same split into lines at every newline.
    let control = CacheControl([value])
    _ = CacheControl(value.split(separator: "\n"))
    _ = CacheControl.directives(in: value)
    if let maxAge = control.maxAge { precondition(maxAge >= 0, "a negative max-age") }

    // Retry-After and HTTP dates, against a fixed "now".
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    if let delay = RetryAfter.parse(value, now: now) { precondition(delay >= .zero, "a negative delay") }
    _ = HTTPDate.parse(value)

    // A replay's origin rewriting: a fixed origin and one the input names.
    let recorded = RecordedOrigins(
        Cassette(interactions: [
            .init(request: .init(method: "GET", url: "http://127.0.0.1:9400/"), response: .init(status: 200)),
            .init(request: .init(method: "GET", url: String(value.prefix(80))), response: .init(status: 200)),
        ])
    )
    let replayed = recorded.rewriting(value, to: "http://127.0.0.1:18700")
    if !value.lowercased().contains("http") {
        precondition(replayed == value, "text without an address was changed")
    }

    // Media types.
    _ = MediaType.essence(of: value)
    _ = MediaType.matches(value, anyOf: MediaType.jsonLike)
    _ = MediaType.matches(value, anyOf: ["text/*", "*/*", "application/atom+xml", "*/*+xml"])
    _ = MediaType.matches("application/json; charset=utf-8", anyOf: [value])

    // Content-Range.
    if let range = ContentRange(value) {
        precondition(range.first <= range.last, "a range that ends before it starts")
    }

    // Range, against a few lengths, and the parts a cache would store for it.
    if let ranges = ByteRangeRequest(value) {
        for length in [0, 1, 1000, Int.max] {
            if case .bytes(let bytes) = ranges.selection(length: length) {
                precondition(bytes.lowerBound >= 0 && bytes.upperBound <= length && !bytes.isEmpty, "a range outside")
            }
        }
        if var parts = PartialContent(part: 10..<20, completeLength: 1000) {
            var body = Data(count: 10)
            for spec in ranges.specs.prefix(64) {
                if case .span(let first, let last) = spec, first < 1000 {
                    let end = min(last ?? 999, 999) + 1
                    if let merged = parts.merging(Data(count: end - first), at: first, body: body) {
                        (parts, body) = merged
                    }
                }
            }
            precondition(parts.isConsistent(bodyCount: body.count), "merged parts that do not add up")
            if let missing = parts.missing(in: 0..<1000) { precondition(!parts.covers(missing), "missing but covered") }
        }
    }
    // Cookies: what is kept obeys the RFC's limits, and a file written back reads the same.
    if let set = SetCookie(value, now: now) {
        precondition(set.name.utf8.count + set.value.utf8.count <= SetCookie.maximumPairLength, "an oversized cookie")
        precondition(!(set.name + set.value).utf8.contains { $0 < 0x20 && $0 != 0x09 }, "a control character kept")
        if let expires = set.expires {
            precondition(expires <= now + SetCookie.maximumLifetime, "a cookie living past 400 days")
        }
    }
    let fields = SetCookie.fields(inCombined: value)
    // Split at commas, the spaces after them dropped: never more bytes than were given.
    precondition(fields.joined(separator: ",").utf8.count <= value.utf8.count, "the split added bytes")
    _ = CookieDate.parse(value)
    if let cookies = CookieFile.parse(Data(value.utf8), now: now) {
        for cookie in cookies { precondition(!cookie.hasExpired(at: now) && cookie.path.hasPrefix("/"), "a bad cookie read") }
    }
    let suffixes = PublicSuffixList(rules: value)
    for line in value.split(separator: "\n").prefix(8) {
        _ = suffixes.isPublicSuffix(String(line))
        _ = CookieStore.domain(String(line), matches: "www.example.com")
        _ = CookieStore.path(String(line), matches: "/a/b")
        _ = CookieStore.defaultPath(of: String(line))
    }

    // Redaction: what it leaves is what it was given, secrets aside; it never grows a body
    // by more than the placeholders it writes.
    let bytes = Data(value.utf8)
    _ = Redaction.redactingURLs(in: value)
    _ = MediaType.boundary(in: value)
    for contentType in [nil, "application/json", "text/html", "application/x-www-form-urlencoded"] {
        _ = Redaction.redactingBody(bytes, contentType: contentType)
    }
    let multipart = Redaction.redactingBody(bytes, contentType: "multipart/form-data; boundary=b")
    precondition(multipart.count <= bytes.count + 8 * (bytes.count / 2 + 1), "multipart redaction grew the body")
    return 0
}
