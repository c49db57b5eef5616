import Courier
import CourierTestServer
import CourierTestTraits
import Favorites
import Foundation
import Synchronization
import Testing

/// Ratings fetched from the loopback TMDB stand-in and written into a real SQLite file.
@Suite(.loadLimited)
struct RatingUpdaterTests {
    @Test func aRatingIsLookedUpAndWrittenBack() async throws {
        try await withTemporaryStore { store in
            try await withTMDB { tmdb, _ in
                try await store.addMember("Anna")
                let updater = RatingUpdater(store: store, tmdb: tmdb)
                let alien = try await store.addFavorite("alien", for: "Anna").favorite
                let outcome = try await updater.rate(alien.movieID)
                guard case .rated(let match) = outcome else {
                    Issue.record("expected a rating, got \(outcome)")
                    return
                }
                #expect(match == .init(tmdbID: 348, title: "Alien", year: 1979, popularity: 47.532))
                let stored = try #require(try await store.favorites(of: "Anna").first)
                #expect(stored.rating == .popularity(47.532))
                #expect(stored.tmdbID == 348)
                #expect(stored.lastError == nil)
                #expect(stored.fetchedAt != nil)
            }
        }
    }

    @Test func noMatchAndErrorsAreRecordedWithTheMovie() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            let unknown = try await store.addFavorite("Zzyzx Road Trip", for: "Anna").favorite
            let dune = try await store.addFavorite("Dune", for: "Anna").favorite
            try await withTMDB { tmdb, _ in
                let outcome = try await RatingUpdater(store: store, tmdb: tmdb).rate(unknown.movieID)
                guard case .noMatch = outcome else {
                    Issue.record("expected no match, got \(outcome)")
                    return
                }
            }
            try await withTMDB(credentials: .accessToken("expired")) { tmdb, _ in
                let outcome = try await RatingUpdater(store: store, tmdb: tmdb).rate(dune.movieID)
                guard case .failed(.unauthorized) = outcome else {
                    Issue.record("expected unauthorized, got \(outcome)")
                    return
                }
            }
            let ratings = try await store.favorites(of: "Anna").map(\.rating)
            #expect(
                ratings == [
                    .failed("TMDB answered 401 Unauthorized: Invalid API key: You must be granted a valid key."),
                    .failed("TMDB has no movie titled 'Zzyzx Road Trip'"),
                ]
            )
        }
    }

    @Test func refreshRatesPendingMoviesConcurrentlyAndStaleOnesById() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            for number in 1...30 { try await store.addFavorite("Synthetic \(number)", for: "Anna") }
            try await withTMDB(path: "/slow/20") { tmdb, server in
                let updater = RatingUpdater(store: store, tmdb: tmdb)
                let progress = ProgressLog()
                let summary = try await updater.refresh(staleAfter: .seconds(7 * 86_400), concurrency: 8) {
                    done,
                    total in
                    progress.append(done, total)
                }
                #expect(summary.total == 30)
                #expect(summary.rated == 30)
                #expect(summary.failures.isEmpty)
                #expect(progress.values.last?.0 == 30)
                #expect(progress.values.map(\.0) == Array(0...30))
                #expect(await server.events.hitCount("tmdb-search") == 30)

                let favorites = try await store.favorites()
                for favorite in favorites {
                    let number = Int(favorite.title.dropFirst("Synthetic ".count)) ?? -1
                    #expect(favorite.tmdbID == TMDBRoutes.syntheticBase + number)
                    #expect(favorite.popularity == Double(number) + 0.5)
                }
                let nothingLeft = try await updater.refresh(staleAfter: .seconds(7 * 86_400))
                #expect(nothingLeft.total == 0)

                let later = Date().addingTimeInterval(8 * 86_400)
                let stale = try await updater.refresh(staleAfter: .seconds(7 * 86_400), concurrency: 4, now: later)
                #expect(stale.rated == 30)
                #expect(await server.events.hitCount("tmdb-movie") == 30, "known movies are refreshed by id")
                #expect(await server.events.hitCount("tmdb-search") == 30)
            }
        }
    }
}

/// Progress callbacks, collected from any thread.
final class ProgressLog: Sendable {
    private let log = Mutex<[(Int, Int)]>([])
    func append(_ done: Int, _ total: Int) { log.withLock { $0.append((done, total)) } }
    var values: [(Int, Int)] { log.withLock { $0 } }
}
