import Courier
import Favorites
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// The Movies tab: family members, their favourites rated by TMDB, pushed to the page as the
/// database changes, and TMDB's top-rated chart.
///
/// - `GET /api/family`, `POST /api/family` `{"name"}`, `DELETE /api/family?name=`
/// - `GET /api/movies/events?member=`: Server-Sent Events, one `favorites` event with the
///   member's list now and after every change, this process's or another's.
/// - `POST /api/movies/favorites` `{"member","title"}`: added at once with its rating pending;
///   the rating is looked up in the background and arrives through the events.
/// - `DELETE /api/movies/favorites?member=&title=`
/// - `POST /api/movies/refresh`: JSON Lines of progress, then a summary.
/// - `GET /api/movies/top-rated?page=N`
struct MoviesRoutes: Sendable {
    let store: FavoritesStore
    let tmdb: HTTPClient
    let ratings: RatingQueue

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/family") { _, _ in
            await perform { () throws(FavoritesError) in
                AppResponse.json(try await store.members().map(MemberJSON.init))
            }
        }
        router.post("/api/family") { request, _ in
            let body: NameBody
            do throws(AppInputError) { body = try await request.decodedBody(NameBody.self) } catch {
                return error.response
            }
            return await perform { () throws(FavoritesError) in
                AppResponse.json(MemberJSON(try await store.addMember(body.name)), status: .created)
            }
        }
        router.delete("/api/family") { request, _ in
            await perform { () throws(FavoritesError) in
                AppResponse.json(MemberJSON(try await store.removeMember(request.parameter("name") ?? "")))
            }
        }
        router.get("/api/movies/events") { request, _ in events(request) }
        router.post("/api/movies/favorites") { request, _ in
            let body: FavoriteBody
            do throws(AppInputError) { body = try await request.decodedBody(FavoriteBody.self) } catch {
                return error.response
            }
            return await perform { () throws(FavoritesError) in
                let addition = try await store.addFavorite(body.title, for: body.member)
                if case .pending = addition.favorite.rating { ratings.rate(addition.favorite.movieID) }
                return AppResponse.json(
                    FavoriteJSON(addition.favorite),
                    status: addition.wasAlreadyFavorite ? .ok : .created
                )
            }
        }
        router.delete("/api/movies/favorites") { request, _ in
            await perform { () throws(FavoritesError) in
                try await store.removeFavorite(request.parameter("title") ?? "", for: request.parameter("member") ?? "")
                return Response(status: .noContent)
            }
        }
        router.post("/api/movies/refresh") { _, _ in refresh() }
        router.get("/api/movies/top-rated") { request, _ in await topRated(request) }
    }

    // MARK: - Live favourites

    private func events(_ request: Request) -> Response {
        let member = request.parameter("member")
        let updates = store.favoritesUpdates(of: member)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .connection: "close"],
            body: ResponseBody { writer in
                // The updates pass through a relay that a graceful shutdown can end; leaving
                // the page ends the stream too.
                let (relay, relaying) = AsyncThrowingStream.makeStream(
                    of: [FavoriteMovie].self,
                    bufferingPolicy: .bufferingNewest(1)
                )
                do {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            do {
                                for try await favorites in updates { relaying.yield(favorites) }
                                relaying.finish()
                            } catch {
                                relaying.finish(throwing: error)
                            }
                        }
                        defer { group.cancelAll() }
                        try await withGracefulShutdownHandler {
                            try await request.untilClientLeaves {
                                for try await favorites in relay {
                                    try await writer.write(
                                        AppResponse.event("favorites", favorites.map(FavoriteJSON.init))
                                    )
                                }
                            }
                        } onGracefulShutdown: {
                            relaying.finish()
                        }
                    }
                } catch let error as FavoritesError {
                    try await writer.write(AppResponse.event("failure", Message(error.description)))
                }
                try await writer.finish(nil)
            }
        )
    }

    // MARK: - Refresh and the chart

    private func refresh() -> Response {
        let updater = RatingUpdater(store: store, tmdb: tmdb)
        return Response(
            status: .ok,
            headers: AppResponse.streamHeaders,
            body: ResponseBody { writer in
                let (progress, sink) = AsyncStream.makeStream(of: Progress.self, bufferingPolicy: .bufferingNewest(64))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        defer { sink.finish() }
                        do throws(FavoritesError) {
                            let summary = try await updater.refresh(staleAfter: .zero) { done, total in
                                sink.yield(Progress(done: done, total: total))
                            }
                            sink.yield(Progress(summary))
                        } catch {
                            sink.yield(Progress(error: error.description))
                        }
                    }
                    for await line in progress { try await writer.write(AppResponse.line(line)) }
                    try await group.waitForAll()
                }
                try await writer.finish(nil)
            }
        )
    }

    private func topRated(_ request: Request) async -> Response {
        guard let page = Int(request.parameter("page") ?? "1"), (1...TMDB.maximumPage).contains(page) else {
            return AppResponse.problem(.badRequest, "The page must be a number from 1 to \(TMDB.maximumPage).")
        }
        do {
            let chart = try await tmdb.send(TMDB.movies.topRated(page: page))
            return AppResponse.json(ChartJSON(chart))
        } catch {
            return AppResponse.problem(.badGateway, RatingUpdater.reason(error))
        }
    }

    // MARK: - Errors

    private func perform(_ body: () async throws(FavoritesError) -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            let status: HTTPResponse.Status =
                switch error {
                case .unknownMember, .notAFavorite: .notFound
                case .memberExists: .conflict
                case .blankName, .blankTitle: .badRequest
                case .cannotOpen, .database: .internalServerError
                }
            return AppResponse.problem(status, error.description)
        }
    }
}

// MARK: - What the page sends and receives

private struct NameBody: Decodable {
    var name: String
}

private struct FavoriteBody: Decodable {
    var member: String
    var title: String
}

private struct Message: Encodable {
    var message: String
    init(_ message: String) { self.message = message }
}

private struct MemberJSON: Encodable {
    var name: String
    var favoriteCount: Int

    init(_ member: FamilyMember) {
        name = member.name
        favoriteCount = member.favoriteCount
    }

    enum CodingKeys: String, CodingKey {
        case name
        case favoriteCount = "favorite_count"
    }
}

/// A favourite as the page shows it: `rating` is `pending`, `rated` or `failed`.
struct FavoriteJSON: Encodable {
    var member: String
    var title: String
    var movieID: Int64
    var tmdbID: Int?
    var rating: String
    var popularity: Double?
    var error: String?

    init(_ favorite: FavoriteMovie) {
        member = favorite.member
        title = favorite.title
        movieID = favorite.movieID
        tmdbID = favorite.tmdbID
        popularity = favorite.popularity
        switch favorite.rating {
        case .pending: rating = "pending"
        case .popularity: rating = "rated"
        case .failed(let reason):
            rating = "failed"
            error = reason
        }
    }

    enum CodingKeys: String, CodingKey {
        case member, title, rating, popularity, error
        case movieID = "movie_id"
        case tmdbID = "tmdb_id"
    }
}

private struct Progress: Encodable, Sendable {
    var done: Int?
    var total: Int?
    var rated: Int?
    var failed: Int?
    var error: String?

    init(done: Int, total: Int) {
        self.done = done
        self.total = total
    }

    init(_ summary: RatingUpdater.Summary) {
        total = summary.total
        rated = summary.rated
        failed = summary.failures.count
        error = summary.firstError.map(RatingUpdater.reason)
    }

    init(error: String) {
        self.error = error
    }
}

private struct ChartJSON: Encodable {
    var page: Int
    var totalPages: Int
    var results: [Movie]

    struct Movie: Encodable {
        var id: Int
        var title: String
        var year: Int?
        var voteAverage: Double
        var popularity: Double

        enum CodingKeys: String, CodingKey {
            case id, title, year, popularity
            case voteAverage = "vote_average"
        }
    }

    init(_ page: MoviePage) {
        self.page = page.page
        totalPages = min(page.totalPages, TMDB.maximumPage)
        results = page.results.map {
            Movie(id: $0.id, title: $0.title, year: $0.year, voteAverage: $0.voteAverage, popularity: $0.popularity)
        }
    }

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
    }
}
