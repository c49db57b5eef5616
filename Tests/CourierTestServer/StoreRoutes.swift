import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A stand-in for the iTunes Search API and its artwork server, answering as the real ones do:
/// `text/javascript` with leading blank lines, items of every kind with odd fields, `400` with
/// an `errorMessage` for a bad country, and artwork with an `ETag` that must be revalidated.
///
/// - `GET /search?term=&entity=&limit=&country=`: the fixture's items of the entity's kind
///   (all for none), at most `limit`; none for the term `nothing`; a term starting with
///   `sleep:N:` answers after N milliseconds. The raw query is recorded under `search`.
/// - `GET /artwork/{name}-{size}.{png|gif}`: a real `size`×`size` image; a name starting with
///   `corrupt` gets an HTML page instead. `?delay_ms=N` waits first. Downloads are counted
///   under `artwork:<file>`, `304`s under `artwork-304:<file>`.
enum StoreRoutes {
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

    private static func matches(_ item: [String: Any], entity: String?) -> Bool {
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

    private static func javascript(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/javascript; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}
