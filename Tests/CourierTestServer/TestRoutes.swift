import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The routes of ``TestServer``.
enum TestRoutes {
    static let movieJSON = #"{"id":3,"title":"Dune","release_date":"1965-08-01","tags":["sci-fi","classic"]}"#

    struct Book: Codable {
        var title: String
        var author: String
        var year: Int
    }

    static let catalog = [
        Book(title: "Dracula", author: "Bram Stoker", year: 1897),
        Book(title: "Dubliners", author: "James Joyce", year: 1914),
        Book(title: "Dune", author: "Frank Herbert", year: 1965),
        Book(title: "Emma", author: "Jane Austen", year: 1815),
    ]

    static func router(events: TestServerEvents) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/json") { _, _ in json(movieJSON) }
        router.get("/catalog") { request, _ in
            let prefix = (request.uri.queryParameters.get("q") ?? "").lowercased()
            let books = catalog.filter { $0.title.lowercased().hasPrefix(prefix) }
            return json(String(decoding: try JSONEncoder().encode(books), as: UTF8.self))
        }
        router.get("/bad-json") { _, _ in json(#"{"id":"three","title":"Dune"}"#) }
        router.get("/html") { _, _ in html("<html><body><h1>Welcome</h1></body></html>") }
        router.on("/echo", method: .get) { request, context in try await echo(request, context) }
        router.on("/echo", method: .post) { request, context in try await echo(request, context) }
        router.on("/echo", method: .put) { request, context in try await echo(request, context) }
        router.on("/echo", method: .patch) { request, context in try await echo(request, context) }
        router.on("/echo", method: .delete) { request, context in try await echo(request, context) }
        router.on("/echo", method: .options) { request, context in try await echo(request, context) }
        router.on("/echo", method: .head) { _, _ in Response(status: .ok, headers: [.contentType: "application/json"]) }
        router.get("/no-content") { _, _ in Response(status: .noContent) }
        router.get("/redirect/{count}") { _, context in
            let count = context.parameters.get("count", as: Int.self) ?? 0
            return count <= 0 ? json(movieJSON) : redirect(to: "/redirect/\(count - 1)", status: .found)
        }
        router.get("/redirect-loop") { _, _ in redirect(to: "/redirect-loop", status: .found) }
        // Each hop takes `ms` before it redirects to the next, then `/json`.
        router.get("/slow-redirect/{count}") { request, context in
            let count = context.parameters.get("count", as: Int.self) ?? 0
            let milliseconds = min(request.uri.queryParameters.get("ms", as: Int.self) ?? 100, 10_000)
            try await Task.sleep(for: .milliseconds(milliseconds))
            return count <= 0
                ? json(movieJSON) : redirect(to: "/slow-redirect/\(count - 1)?ms=\(milliseconds)", status: .found)
        }
        router.get("/redirect-to") { request, _ in
            redirect(to: request.uri.queryParameters.get("url") ?? "/json", status: .temporaryRedirect)
        }
        router.post("/see-other") { _, _ in redirect(to: "/echo", status: .seeOther) }
        router.get("/cookies/set") { request, _ in
            // A `Set-Cookie` field for each `c`; a 302 to `then` when it is given.
            let query = request.uri.queryParameters
            var headers = HTTPFields()
            for cookie in query[values: "c"] { headers.append(HTTPField(name: .setCookie, value: String(cookie))) }
            guard let then = query.get("then") else { return Response(status: .noContent, headers: headers) }
            headers[.location] = then
            return Response(status: .found, headers: headers)
        }
        router.get("/unauthorized") { _, _ in
            json(
                #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key."}"#,
                status: .unauthorized
            )
        }
        router.get("/missing") { _, _ in
            html(
                "<!DOCTYPE html><html><head><title>404 Not Found</title><style>h1{color:red}</style></head>"
                    + "<body><h1>Not Found</h1><p>The page you asked for is not here.</p></body></html>",
                status: .notFound
            )
        }
        router.get("/fail") { _, _ in text("database unavailable", status: .internalServerError) }
        router.get("/unavailable") { _, _ in
            var response = text("down for maintenance", status: .serviceUnavailable)
            response.headers[.retryAfter] = "1"
            return response
        }
        router.get("/flaky/{key}") { request, context in
            let key = context.parameters.get("key") ?? ""
            let failures = request.uri.queryParameters.get("failures", as: Int.self) ?? 1
            let status = request.uri.queryParameters.get("status", as: Int.self) ?? 503
            let hit = await events.hit(key)
            guard hit > failures else { return text("try again", status: .init(code: status)) }
            return json(#"{"attempts":\#(hit)}"#)
        }
        // SwiftNIO's server reads the extension method M-SEARCH as "MSEARCH".
        let extensionMethods = ["MSEARCH"].compactMap { HTTPRequest.Method($0) }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete] + extensionMethods {
            router.on("/cacheable/{key}", method: method) { request, context in
                try await cacheable(request, context, events: events)
            }
        }
        router.get("/slow") { request, _ in
            let milliseconds = request.uri.queryParameters.get("ms", as: Int.self) ?? 1000
            try await Task.sleep(for: .milliseconds(milliseconds))
            return json(movieJSON)
        }
        router.get("/large") { request, _ in
            let size = request.uri.queryParameters.get("bytes", as: Int.self) ?? 1 << 20
            let chunked = request.uri.queryParameters.get("chunked") != nil
            return large(size: size, declareLength: !chunked)
        }
        router.get("/file/{name}") { request, context in
            try await file(request, context, events: events)
        }
        router.get("/drop") { _, _ in
            // Promises 1000 bytes, sends 100, then the connection closes.
            Response(
                status: .ok,
                headers: [.contentType: "application/json", .contentLength: "1000"],
                body: ResponseBody(contentLength: 1000) { writer in
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: " "), count: 100))
                    throw CancellationError()
                }
            )
        }
        router.get("/hang") { request, _ in
            let id = request.uri.queryParameters.get("id") ?? "hang"
            _ = await events.hit("hang:\(id)")
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    do {
                        while true {
                            try await writer.write(ByteBuffer(string: " "))
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    } catch {
                        await events.recordDisconnect(id)
                        throw error
                    }
                }
            )
        }
        StoreRoutes.add(to: router, events: events)
        CodingRoutes.add(to: router)
        TMDBRoutes.add(to: router, events: events)
        StreamRoutes.add(to: router, events: events)
        return router
    }

    // MARK: - Responses

    /// A response whose caching header fields come from the query: `cc` (Cache-Control), `etag`,
    /// `lm` (Last-Modified, seconds before the server process started), `expires` (seconds from now; `expires_raw` verbatim),
    /// `date` (Date, seconds from now; `date_raw` verbatim), `age` (on full responses only, as an origin sends it),
    /// `fail_after` (answer 503 "down" once `<key>` has been hit that many times), `vary`, `status`, `location`, `content_location`,
    /// `bare304` (304s without ETag or Last-Modified, as many servers send them), `weak304` (304s
    /// with the tag made weak), `set_cookie`, `gzip` (the body in gzip, with `Vary: Accept-Encoding`),
    /// `echo_vary=no` (a body without the `vary` fields' values), `feed` (the body as the title of
    /// an RSS feed's one entry), `extra` (`Name: value`, one more
    /// field line each time it is given), `change_after` (from that hit on, the entity tag is
    /// `"changed"` and the bytes shift by one), `bytes` (a body of that many
    /// bytes that answers `Range`: see ``bytes(_:shift:request:headers:)``), `shift`.
    /// Each request's `Range` and `Cache-Control` are recorded as queries of the routes
    /// `range:<key>` and `cc:<key>` ("-" when absent). Holding `cacheable:<key>` holds the
    /// second and later requests for the key until it is released.
    /// The body, `<key> #<hit>` plus the values of the `vary` fields, tells a test whether the
    /// origin answered. `If-None-Match` naming the tag, or `If-Modified-Since` not before `lm`,
    /// gets a 304 (counted under `<key>:304`).
    /// When this process started, to the second: `lm` counts back from it, so a resource's
    /// Last-Modified stays the same from request to request.
    static let epoch = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

    static func cacheable(
        _ request: Request,
        _ context: BasicRequestContext,
        events: TestServerEvents
    ) async throws
        -> Response
    {
        let key = context.parameters.get("key") ?? ""
        let query = request.uri.queryParameters
        let hit = await events.hit(key)
        await events.record(query: request.headers[.range] ?? "-", for: "range:\(key)")
        await events.record(query: request.headers[.cacheControl] ?? "-", for: "cc:\(key)")
        if hit > 1, await events.isHeld("cacheable:\(key)") {
            await events.waitForRelease("cacheable:\(key)")
        }
        let now = Date()
        var headers = HTTPFields()
        func set(_ name: HTTPField.Name, _ value: String?) {
            if let value { headers.append(HTTPField(name: name, value: value)) }
        }
        func date(_ secondsFromNow: Int?) -> String? {
            secondsFromNow.map { HTTPDateFormat.string(from: now.addingTimeInterval(TimeInterval($0))) }
        }
        set(.cacheControl, query.get("cc"))
        set(.eTag, query.get("etag"))
        // `change_after`: the resource changed, with another entity tag and other bytes.
        let changed = query.get("change_after", as: Int.self).map { hit > $0 } ?? false
        if changed { headers[.eTag] = "\"changed\"" }
        let lastModified = query.get("lm", as: Int.self).map { epoch.addingTimeInterval(TimeInterval(-$0)) }
        set(.lastModified, lastModified.map(HTTPDateFormat.string))
        set(.expires, query.get("expires_raw") ?? date(query.get("expires", as: Int.self)))
        set(.date, query.get("date_raw") ?? date(query.get("date", as: Int.self)))
        set(.vary, query.get("vary"))
        set(.location, query.get("location"))
        set(.contentLocation, query.get("content_location"))
        set(.setCookie, query.get("set_cookie"))
        for extra in query[values: "extra"] {
            guard let colon = extra.firstIndex(of: ":"), let name = HTTPField.Name(String(extra[..<colon])) else {
                continue
            }
            set(name, extra[extra.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }

        let tag = headers[.eTag]
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let modifiedSince = request.headers[.ifModifiedSince].flatMap(HTTPDateFormat.date)
        let tagMatches = tag.map { tag in
            ifNoneMatch?.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "")
                    == tag.replacingOccurrences(of: "W/", with: "")
            } ?? false
        }
        var notModified = tagMatches ?? false
        if tag == nil, ifNoneMatch == nil, let lastModified, let modifiedSince {
            notModified = lastModified <= modifiedSince
        }
        if request.method == .get || request.method == .head, notModified {
            _ = await events.hit("\(key):304")
            if query.get("weak304") != nil, let tag, !tag.hasPrefix("W/") { headers[.eTag] = "W/" + tag }
            if query.get("bare304") != nil {
                // As many servers answer: a 304 without a validator of its own.
                headers[.eTag] = nil
                headers[.lastModified] = nil
            }
            return Response(status: .notModified, headers: headers)
        }
        var body = "\(key) #\(hit)"
        for name in (query.get("echo_vary") == "no" ? "" : query.get("vary") ?? "").split(separator: ",") {
            let fieldName = HTTPField.Name(name.trimmingCharacters(in: .whitespaces))
            body += " \(name.trimmingCharacters(in: .whitespaces))=\(fieldName.flatMap { request.headers[$0] } ?? "-")"
        }
        headers[.contentType] = "text/plain"
        if query.get("feed") != nil {
            // An RSS feed whose one entry's title is the body above.
            body =
                "<rss version=\"2.0\"><channel><title>Cached</title><item><title>\(body)</title></item></channel></rss>"
            headers[.contentType] = "application/rss+xml"
        }
        set(.age, query.get("age"))
        let shift = (query.get("shift", as: Int.self) ?? 0) + (changed ? 1 : 0)
        var status = HTTPResponse.Status(code: query.get("status", as: Int.self) ?? 200)
        if let failAfter = query.get("fail_after", as: Int.self), hit > failAfter {
            status = .serviceUnavailable
            body = "down"
        } else if let size = query.get("bytes", as: Int.self) {
            return bytes(size, shift: shift, request: request, headers: headers)
        }
        if query.get("gzip") != nil {
            // Compressed, as a server that compresses by Accept-Encoding sends it.
            headers[.contentEncoding] = "gzip"
            headers[.vary] = "Accept-Encoding"
            let coded = CodingRoutes.compress(Array(body.utf8), .gzip)
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: coded)))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// `/cacheable`'s body with `bytes=N`: N bytes, byte i being (i + shift) % 251, answering
    /// one range (`a-b`, `a-`, `-n`) with a 206 or a 416 when `If-Range` (absent, the entity
    /// tag, or the Last-Modified date) holds; several ranges get the whole body.
    private static func bytes(_ size: Int, shift: Int, request: Request, headers: HTTPFields) -> Response {
        func body(_ range: Range<Int>) -> ResponseBody {
            .init(byteBuffer: ByteBuffer(bytes: range.lazy.map { UInt8(($0 + shift) % 251) }))
        }
        var headers = headers
        headers[.contentType] = "application/octet-stream"
        headers[.acceptRanges] = "bytes"
        let ifRange = request.headers[.ifRange]
        let ifRangeHolds = ifRange == nil || ifRange == headers[.eTag] || ifRange == headers[.lastModified]
        guard let field = request.headers[.range], field.hasPrefix("bytes="), !field.contains(","), ifRangeHolds,
            case let bounds = field.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false),
            bounds.count == 2
        else {
            return Response(status: .ok, headers: headers, body: body(0..<size))
        }
        var range: Range<Int>?
        if bounds[0].isEmpty, let count = Int(bounds[1]), count > 0, size > 0 {
            range = max(0, size - count)..<size
        } else if let first = Int(bounds[0]), first < size {
            let last = bounds[1].isEmpty ? size - 1 : min(Int(bounds[1]) ?? size - 1, size - 1)
            range = first..<(last + 1)
        }
        guard let range else {
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
        return Response(status: .partialContent, headers: headers, body: body(range))
    }

    /// A file of `bytes` bytes (byte i is i % 251) with the strong tag `etag` (default
    /// `"v1"`), sent in 64 KiB writes. `Range: bytes=N-` gets a 206 of the rest when `If-Range`
    /// is absent or names the tag, else the whole file (200). `drop_once=M` closes the
    /// connection after M bytes the first time `name` is asked for, `stall_once=M` goes silent
    /// after M bytes that time (`drop_until=N`: the first N times); `ranges=no` ignores Range;
    /// `range_shift=K`, `unsolicited_206`, `short_part=K`, `short_body=K` and `content_range=RAW`
    /// answer with parts that do not fit the request.
    /// `cc` sets Cache-Control. Requests are counted under `name`, and `name:range` for a 206.
    static func file(
        _ request: Request,
        _ context: BasicRequestContext,
        events: TestServerEvents
    ) async throws
        -> Response
    {
        let name = context.parameters.get("name") ?? ""
        let query = request.uri.queryParameters
        let size = query.get("bytes", as: Int.self) ?? 1 << 20
        let tag = query.get("etag") ?? "\"v1\""
        let hit = await events.hit(name)
        var start = 0
        if query.get("ranges") != "no", let range = request.headers[.range], range.hasPrefix("bytes="),
            range.hasSuffix("-"), let first = Int(range.dropFirst(6).dropLast()),
            request.headers[.ifRange].map({ $0 == tag }) ?? true
        {
            guard first < size else {
                return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
            }
            start = first
            _ = await events.hit("\(name):range")
        }
        var headers: HTTPFields = [.contentType: "application/octet-stream", .eTag: tag, .acceptRanges: "bytes"]
        if let control = query.get("cc") { headers[.cacheControl] = control }
        // Hostile answers: a part that starts elsewhere than asked, a part nobody asked for, a
        // part that stops before the end, a part whose chunked body is shorter than its range.
        let isPart = start > 0 || query.get("unsolicited_206") != nil
        start += query.get("range_shift", as: Int.self) ?? 0
        let end = size - (query.get("short_part", as: Int.self) ?? 0)
        let shortBody = query.get("short_body", as: Int.self)
        if shortBody == nil { headers[.contentLength] = String(end - start) }
        if isPart { headers[.contentRange] = query.get("content_range") ?? "bytes \(start)-\(end - 1)/\(size)" }
        let dropsUntil = query.get("drop_until", as: Int.self) ?? 1
        let dropAfter = hit <= dropsUntil ? query.get("drop_once", as: Int.self) : nil
        let stallAfter = hit == 1 ? query.get("stall_once", as: Int.self) : nil
        let first = start
        let last = end - (shortBody ?? 0)
        return Response(
            status: isPart ? .partialContent : .ok,
            headers: headers,
            body: ResponseBody(contentLength: shortBody == nil ? end - start : nil) { writer in
                var position = first
                var sent = 0
                while position < last {
                    let count = min(
                        64 << 10,
                        last - position,
                        dropAfter.map { $0 - sent } ?? Int.max,
                        stallAfter.map { $0 - sent } ?? Int.max
                    )
                    if count <= 0, stallAfter != nil {
                        try await Task.sleep(for: .seconds(60))  // silent until the client gives up
                    }
                    if count <= 0 { throw CancellationError() }  // the connection closes mid-body
                    let offset = position % 251
                    try await writer.write(filePattern.getSlice(at: offset, length: count) ?? ByteBuffer())
                    position += count
                    sent += count
                }
                try await writer.finish(nil)
            }
        )
    }

    /// Bytes i % 251 for i from 0, long enough for a 64 KiB write starting anywhere in the cycle.
    static let filePattern = ByteBuffer(bytes: (0..<((64 << 10) + 251)).map { UInt8($0 % 251) })

    static func json(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }

    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }

    static func text(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }

    static func redirect(to location: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.location: location, .contentLength: "0"])
    }

    static func large(size: Int, declareLength: Bool) -> Response {
        let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 16 * 1024)
        var headers: HTTPFields = [.contentType: "application/octet-stream"]
        if declareLength { headers[.contentLength] = "\(size)" }
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody(contentLength: declareLength ? size : nil) { writer in
                var remaining = size
                while remaining > 0 {
                    let count = min(remaining, chunk.readableBytes)
                    try await writer.write(chunk.getSlice(at: 0, length: count) ?? chunk)
                    remaining -= count
                }
                try await writer.finish(nil)
            }
        )
    }

    /// Echoes the request as JSON: method, path, raw query, decoded query items, headers
    /// (lowercased names) and body as text.
    static func echo(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 16 << 20)
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let query = request.uri.query ?? ""
        var items: [[String]] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            items.append([name, value])
        }
        let echo = TestServer.Echo(
            method: request.method.rawValue,
            path: request.uri.path,
            query: query,
            queryItems: items,
            headers: headers,
            body: String(buffer: body)
        )
        let data = try JSONEncoder().encode(echo)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

}

/// IMF-fixdate, the HTTP-date form servers send.
enum HTTPDateFormat {
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    static func string(from date: Date) -> String { formatter.string(from: date) }
    static func date(_ text: String) -> Date? { formatter.date(from: text) }
}
