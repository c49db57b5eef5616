import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A stand-in for TMDB's API v3, answering in its format: `application/json;charset=utf-8`,
/// movies with `null` artwork and collections and empty release dates, and TMDB's error
/// bodies (`{"success":false,"status_code":7,"status_message":"Invalid API key…"}`).
///
/// Every request is counted under `tmdb-request` as it arrives. Every route needs ``accessToken`` as a Bearer token or ``apiKey`` as `api_key`, else 401
/// with status code 7. Under `/slow/{ms}` the same routes answer after `ms` milliseconds.
/// - `GET /3/search/movie?query=&page=`: the fixture movies whose title or original title
///   holds every word of the query (case and accents ignored), most popular first, 20 a
///   page; `Synthetic N` finds one generated movie (id 10,000,000 + N); `server-error`
///   answers 500 (status code 11); a page outside 1…500 answers 400 (status code 22). A
///   query held with `events.hold(["tmdb-search:<query>"])` waits for
///   `events.release("tmdb-search:<query>")`.
///   Counted under `tmdb-search`, queries recorded under `tmdb-search`.
/// - `GET /3/movie/top_rated?page=`: the rated fixture movies by vote average, 5 a page (not
///   TMDB's 20) so that paging shows with a small fixture.
/// - `GET /3/movie/{id}`: the movie's details, or 404 with status code 34. Counted under
///   `tmdb-movie`.
public enum TMDBRoutes {
    /// The v4 read access token the stand-in accepts.
    public static let accessToken = "courier-test-read-access-token"
    /// The v3 API key the stand-in accepts.
    public static let apiKey = "courier-test-api-key"
    /// The id of the first generated movie, `Synthetic 0`.
    public static let syntheticBase = 10_000_000

    static func add(to router: Router<BasicRequestContext>, events: TestServerEvents) {
        for prefix in ["", "/slow/{ms}"] {
            router.get("\(prefix)/3/search/movie") { request, context in
                try await answer(request, context, events: events) { try await search(request, events: events) }
            }
            router.get("\(prefix)/3/movie/{id}") { request, context in
                try await answer(request, context, events: events) {
                    let id = context.parameters.get("id") ?? ""
                    if id == "top_rated" { return topRated(request) }
                    return await details(id, events: events)
                }
            }
        }
    }

    // MARK: - Fixture

    private static let fixture: Data = {
        guard
            let url = Bundle.module.url(forResource: "tmdb-movies", withExtension: "json", subdirectory: "Resources"),
            let data = try? Data(contentsOf: url)
        else { return Data("[]".utf8) }
        return data
    }()

    /// The movies' details, as TMDB's `/3/movie/{id}` sends them (parsed per request: a
    /// dictionary of `Any` cannot be shared between tasks).
    private static var movies: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: fixture) as? [[String: Any]]) ?? []
    }

    /// The fields a list entry has: a subset of the details, with genre ids.
    private static func summary(_ details: [String: Any]) -> [String: Any] {
        var summary: [String: Any] = [:]
        for key in [
            "adult", "backdrop_path", "id", "original_language", "original_title", "overview", "popularity",
            "poster_path", "release_date", "title", "video", "vote_average", "vote_count",
        ] {
            summary[key] = details[key] ?? NSNull()
        }
        summary["genre_ids"] = (details["genres"] as? [[String: Any]] ?? []).compactMap { $0["id"] }
        return summary
    }

    /// A generated movie for load tests: `Synthetic N`.
    private static func synthetic(_ number: Int) -> [String: Any] {
        [
            "adult": false, "backdrop_path": NSNull(), "belongs_to_collection": NSNull(), "budget": 0,
            "genres": [["id": 18, "name": "Drama"]], "homepage": "", "id": syntheticBase + number,
            "imdb_id": NSNull(), "original_language": "en", "original_title": "Synthetic \(number)",
            "overview": "A generated movie.", "popularity": Double(number % 1000) + 0.5,
            "poster_path": NSNull(), "release_date": "", "revenue": 0, "runtime": 90, "status": "Released",
            "tagline": "", "title": "Synthetic \(number)", "video": false, "vote_average": 5.0, "vote_count": 1,
        ]
    }

    // MARK: - Routes

    private static func search(_ request: Request, events: TestServerEvents) async throws -> Response {
        _ = await events.hit("tmdb-search")
        await events.record(query: request.uri.query ?? "", for: "tmdb-search")
        let query = formValue("query", in: request.uri.query ?? "") ?? ""
        if await events.isHeld("tmdb-search:\(query)") {
            await events.waitForRelease("tmdb-search:\(query)")
        }
        if query == "server-error" {
            return error(11, "Internal error: Something went wrong, contact TMDB.", status: .internalServerError)
        }
        let words = fold(query).split(separator: " ")
        if let number = syntheticNumber(query) {
            return try page([summary(synthetic(number))], request)
        }
        let found = movies.filter { movie in
            let titles = fold("\(movie["title"] as? String ?? "") \(movie["original_title"] as? String ?? "")")
            return !words.isEmpty && words.allSatisfy { titles.contains($0) }
        }
        .sorted { ($0["popularity"] as? Double ?? 0) > ($1["popularity"] as? Double ?? 0) }
        return try page(found.map(summary), request)
    }

    private static func topRated(_ request: Request) -> Response {
        let rated = movies.filter { ($0["vote_count"] as? Int ?? 0) > 0 }
            .sorted { ($0["vote_average"] as? Double ?? 0) > ($1["vote_average"] as? Double ?? 0) }
        return (try? page(rated.map(summary), request, perPage: 5)) ?? Response(status: .internalServerError)
    }

    private static func details(_ id: String, events: TestServerEvents) async -> Response {
        _ = await events.hit("tmdb-movie")
        if let number = Int(id), number >= syntheticBase, let body = try? encode(synthetic(number - syntheticBase)) {
            return json(body)
        }
        guard let movie = movies.first(where: { ($0["id"] as? Int).map(String.init) == id }),
            let body = try? encode(movie)
        else {
            return error(34, "The resource you requested could not be found.", status: .notFound)
        }
        return json(body)
    }

    // MARK: - Helpers

    /// Checks the credentials and the latency prefix, then answers with `body`.
    private static func answer(
        _ request: Request,
        _ context: BasicRequestContext,
        events: TestServerEvents,
        _ body: () async throws -> Response
    ) async throws -> Response {
        _ = await events.hit("tmdb-request")
        if let delay = context.parameters.get("ms").flatMap({ Int($0) }) {
            try await Task.sleep(for: .milliseconds(delay))
        }
        let bearer = request.headers[.authorization] == "Bearer \(accessToken)"
        let key = request.uri.queryParameters.get("api_key") == apiKey
        guard bearer || key else {
            return error(7, "Invalid API key: You must be granted a valid key.", status: .unauthorized)
        }
        return try await body()
    }

    private static func page(_ results: [[String: Any]], _ request: Request, perPage: Int = 20) throws -> Response {
        let page = request.uri.queryParameters.get("page").map { Int($0) ?? 0 } ?? 1
        guard (1...500).contains(page) else {
            return error(
                22,
                "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.",
                status: .badRequest
            )
        }
        let start = min(results.count, (page - 1) * perPage)
        let slice = Array(results[start..<min(results.count, start + perPage)])
        let body: [String: Any] = [
            "page": page, "results": slice, "total_pages": max(1, (results.count + perPage - 1) / perPage),
            "total_results": results.count,
        ]
        return json(try encode(body))
    }

    /// A form-encoded query item's value, `+` read as a space as TMDB (and every form decoder)
    /// reads it.
    private static func formValue(_ name: String, in query: String) -> String? {
        for item in query.split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first == Substring(name) else { continue }
            let value = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ") : ""
            return value.removingPercentEncoding ?? value
        }
        return nil
    }

    private static func syntheticNumber(_ query: String) -> Int? {
        guard query.hasPrefix("Synthetic ") else { return nil }
        return Int(query.dropFirst("Synthetic ".count))
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .map { $0.isLetter || $0.isNumber ? $0 : " " }.reduce(into: "") { $0.append($1) }
    }

    private static func encode(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    private static func error(_ code: Int, _ message: String, status: HTTPResponse.Status) -> Response {
        json(#"{"success":false,"status_code":\#(code),"status_message":"\#(message)"}"#, status: status)
    }

    private static func json(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json;charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}
