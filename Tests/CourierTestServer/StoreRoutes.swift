import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A stand-in for the iTunes Search API and its artwork server, answering as the real ones do:
/// `text/javascript` with leading blank lines and a day's `max-age`, items of every kind with
/// odd fields, `400` with an `errorMessage` for a bad country, and artwork with an `ETag` that must be revalidated.
///
/// - `GET /search?term=&entity=&limit=&country=`: the fixture's items of the entity's kind
///   (all for none), at most `limit`; none for the term `nothing`; a term starting with
///   `sleep:N:` answers after N milliseconds. The raw query is recorded under `search`, each
///   term counted under `search:<term>`. A term held with `events.hold(["search:<term>"])` is
///   answered only when its client leaves, which is recorded as the disconnect `search:<term>`.
///   `rate:429[:SECONDS]` and `rate:403` refuse as the store does past its rate (a term
///   continuing them is refused the same).
///   `grid:COUNT:DISTINCT:DELAY[:NAME]` answers COUNT songs whose artwork is DISTINCT images
///   (`<NAME><i>-60.png`, NAME `grid` by default) each answering after DELAY milliseconds.
/// - `GET /artwork/{name}-{size}.{png|gif}`: a real `size`×`size` image; a name starting with
///   `corrupt` gets an HTML page instead. `?delay_ms=N` waits first. Downloads are counted
///   under `artwork:<file>`, `304`s under `artwork-304:<file>`. A file held with
///   `events.hold(["artwork:<file>"])` is answered only when its client leaves (the
///   disconnect `artwork:<file>`).
public enum StoreRoutes {
    static func add(to router: Router<BasicRequestContext>, events: TestServerEvents) {
        router.get("/search") { request, _ in try await search(request, events: events) }
        router.get("/artwork/{file}") { request, context in try await artwork(request, context, events: events) }
    }

    private static let fixture: String = {
        guard
            let url = Bundle.module.url(forResource: "itunes-search", withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url)
        else { return #"{"resultCount":0,"results":[]}"# }
        return String(decoding: data, as: UTF8.self)
    }()

    private static func search(_ request: Request, events: TestServerEvents) async throws -> Response {
        await events.record(query: request.uri.query ?? "", for: "search")
        let parameters = request.uri.queryParameters
        var term = parameters.get("term") ?? ""
        _ = await events.hit("search:\(term)")
        if await events.isHeld("search:\(term)") {
            try await holdUntilClientLeaves(request, id: "search:\(term)", events: events)
            return javascript("\n\n\n{\n \"resultCount\":0,\n \"results\": []\n}\n")
        }
        if term.hasPrefix("grid:") { return grid(term, request) }
        if term.hasPrefix("rate:") { return refusal(term) }
        if term.hasPrefix("hold:") {
            // `hold:NAME:term` answers once the test calls `events.release(NAME)`.
            let parts = term.split(separator: ":", maxSplits: 2)
            await events.waitForRelease(String(parts.count > 1 ? parts[1] : ""))
            term = parts.count > 2 ? String(parts[2]) : ""
        } else if term.hasPrefix("sleep:") {
            let parts = term.split(separator: ":", maxSplits: 2)
            try await Task.sleep(for: .milliseconds(Int(parts[1]) ?? 0))
            term = parts.count > 2 ? String(parts[2]) : ""
        }
        if let country = parameters.get("country"), country.count != 2 {
            return javascript(
                #"{"errorMessage":"Invalid value(s) for key(s): [country]","queryParameters":{"country":"\#(country)"}}"#,
                status: .badRequest
            )
        }
        let base = "http://\(request.head.authority ?? "127.0.0.1")"
        let document = fixture.replacingOccurrences(of: "{base}", with: base)
        guard term != "nothing",
            let object = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any],
            let items = object["results"] as? [[String: Any]]
        else {
            return javascript("\n\n\n{\n \"resultCount\":0,\n \"results\": []\n}\n")
        }
        let limit = parameters.get("limit", as: Int.self) ?? 50
        let chosen = items.filter { matches($0, entity: parameters.get("entity")) }.prefix(limit)
        let lines = try chosen.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        return javascript(
            "\n\n\n{\n \"resultCount\":\(chosen.count),\n \"results\": [\n\(lines.joined(separator: ",\n"))]\n}\n"
        )
    }

    /// `rate:429[:SECONDS]…` or `rate:403…`: the store refusing searches, as it does past about
    /// twenty a minute — 429 with `Retry-After: SECONDS` when given, or a bare 403.
    private static func refusal(_ term: String) -> Response {
        let parts = term.split(separator: ":")
        guard parts.count > 1, parts[1] == "429" else { return Response(status: .forbidden) }
        var headers: HTTPFields = [.contentType: "text/plain"]
        if parts.count > 2, let seconds = Int(parts[2].prefix { $0.isNumber }) {
            headers[.retryAfter] = String(seconds)
        }
        return Response(
            status: .tooManyRequests,
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: "Too Many Requests"))
        )
    }

    /// Whether the store item `item` is of the kind the Search API's `entity` asks for (any
    /// kind for none).
    public static func matches(_ item: [String: Any], entity: String?) -> Bool {
        let kind = item["kind"] as? String
        switch entity {
        case nil, "": return true
        case "musicTrack": return kind == "song"
        case "software": return kind == "software"
        case "ebook": return kind == "ebook"
        case "podcast": return kind == "podcast"
        case "movie": return kind == "feature-movie"
        case "audiobook": return item["wrapperType"] as? String == "audiobook"
        default: return false
        }
    }

    private static func artwork(
        _ request: Request,
        _ context: BasicRequestContext,
        events: TestServerEvents
    ) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        if await events.isHeld("artwork:\(file)") {
            _ = await events.hit("artwork-request:\(file)")
            try await holdUntilClientLeaves(request, id: "artwork:\(file)", events: events)
            return Response(status: .serviceUnavailable)
        }
        if let delay = request.uri.queryParameters.get("delay_ms", as: Int.self) {
            try await Task.sleep(for: .milliseconds(delay))
        }
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        let size = stem.split(separator: "-").last.flatMap { Int($0) } ?? 60
        guard (1...1024).contains(size), file.hasSuffix(".png") || file.hasSuffix(".gif") else {
            return Response(status: .notFound)
        }
        let tag = "\"\(file)-v1\""
        if request.headers[.ifNoneMatch]?.contains(tag) == true {
            _ = await events.hit("artwork-304:\(file)")
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "max-age=0"])
        }
        _ = await events.hit("artwork:\(file)")
        if file.hasPrefix("corrupt") {
            return Response(
                status: .ok,
                headers: [.contentType: "image/png", .cacheControl: "max-age=0"],
                body: .init(
                    byteBuffer: ByteBuffer(string: "<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>")
                )
            )
        }
        let isGIF = file.hasSuffix(".gif")
        let image = isGIF ? TestImages.gif(width: size, height: size) : TestImages.png(width: size, height: size)
        return Response(
            status: .ok,
            headers: [.contentType: isGIF ? "image/gif" : "image/png", .eTag: tag, .cacheControl: "max-age=0"],
            body: .init(byteBuffer: ByteBuffer(bytes: image))
        )
    }

    /// Waits until the client of `request` closes its connection, and records that as the
    /// disconnect `id`.
    static func holdUntilClientLeaves(_ request: Request, id: String, events: TestServerEvents) async throws {
        try await request.body.consumeWithInboundCloseHandler { _ in
            await events.waitForRelease(id)
        } onInboundClosed: {
            Task {
                await events.recordDisconnect(id)
                await events.release(id)
            }
        }
    }

    /// `grid:COUNT:DISTINCT:DELAY`: COUNT songs over DISTINCT artwork URLs.
    private static func grid(_ term: String, _ request: Request) -> Response {
        let parts = term.split(separator: ":").dropFirst()
        let numbers = parts.prefix(3).map { Int($0) ?? 0 }
        let name = parts.count > 3 ? String(parts[parts.startIndex + 3]) : "grid"
        let count = min(max(numbers.first ?? 0, 0), 10_000)
        let distinct = max(numbers.count > 1 ? numbers[1] : count, 1)
        let delay = max(numbers.count > 2 ? numbers[2] : 0, 0)
        let base = "http://\(request.head.authority ?? "127.0.0.1")"
        let items = (0..<count).map { index in
            """
            {"wrapperType":"track","kind":"song","trackName":"Grid item \(index)","artistName":"Artist \(index % distinct)",\
            "trackPrice":0.99,"currency":"USD","primaryGenreName":"Pop",\
            "artworkUrl60":"\(base)/artwork/\(name)\(index % distinct)-60.png?delay_ms=\(delay)"}
            """
        }
        return javascript(
            "\n\n\n{\n \"resultCount\":\(count),\n \"results\": [\n\(items.joined(separator: ",\n"))]\n}\n"
        )
    }

    /// An answer as the store sends it: a search is fresh for a day, an error for a few minutes.
    private static func javascript(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/javascript; charset=utf-8",
                .cacheControl: status == .ok ? "max-age=86400" : "private, max-age=285",
            ],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}
