public import Courier
public import Foundation

/// Looks movies up on TMDB and writes their popularity back, each in its own transaction —
/// the chapter's background fetch.
///
/// ```swift
/// let updater = RatingUpdater(store: store, tmdb: tmdb)
/// let added = try await store.addFavorite("Dune", for: "Anna")
/// let outcome = try await updater.rate(added.favorite.movieID)
/// let summary = try await updater.refresh(staleAfter: .seconds(7 * 86_400), concurrency: 4)
/// ```
public struct RatingUpdater: Sendable {
    /// The TMDB movie a title was matched to.
    public struct Match: Sendable, Hashable {
        /// TMDB's id for the movie.
        public var tmdbID: Int
        /// TMDB's title for it.
        public var title: String
        /// The release year, when TMDB knows it.
        public var year: Int?
        /// TMDB's popularity score.
        public var popularity: Double

        /// Creates a match.
        public init(tmdbID: Int, title: String, year: Int?, popularity: Double) {
            self.tmdbID = tmdbID
            self.title = title
            self.year = year
            self.popularity = popularity
        }
    }

    /// What looking up one movie came to.
    public enum Outcome: Sendable {
        /// The rating was fetched and saved.
        case rated(Match)
        /// TMDB has no movie by that title; recorded as the movie's error.
        case noMatch
        /// The request failed; recorded as the movie's error, the rating stays pending.
        case failed(RequestError)
        /// The movie was removed before its rating arrived; nothing was written.
        case removed
    }

    /// What a ``refresh(staleAfter:concurrency:now:progress:)`` did.
    public struct Summary: Sendable {
        /// How many movies needed a rating.
        public var total: Int
        /// How many got one.
        public var rated: Int
        /// The movies whose lookup failed, with the reason recorded for each.
        public var failures: [(title: String, reason: String)]
        /// The first request error, to choose an exit status by.
        public var firstError: RequestError?
    }

    /// Where ratings are written.
    public let store: FavoritesStore
    /// Where ratings come from: a client for TMDB, made with
    /// ``Courier/HTTPClient/Configuration/tmdb(baseURL:credentials:securityPolicy:timeout:middleware:)``.
    public let tmdb: HTTPClient

    /// An updater writing what `tmdb` answers into `store`.
    ///
    /// - Parameters:
    ///   - store: Where ratings are written.
    ///   - tmdb: A client for TMDB, or for a stand-in that answers like it.
    public init(store: FavoritesStore, tmdb: HTTPClient) {
        self.store = store
        self.tmdb = tmdb
    }

    /// Looks up the movie with row id `movieID` and writes the outcome back.
    public func rate(_ movieID: Int64) async throws(FavoritesError) -> Outcome {
        guard let movie = try await store.movie(id: movieID) else { return .removed }
        return try await rate(movie)
    }

    /// Looks `movie` up — by its TMDB id when it has one, else by title, taking the best
    /// match — and writes the popularity, or the reason it failed, in its own transaction.
    /// A cancelled lookup writes nothing: the rating stays pending for the next refresh.
    public func rate(_ movie: Movie) async throws(FavoritesError) -> Outcome {
        let found: Match?
        do throws(RequestError) {
            if let tmdbID = movie.tmdbID {
                let details = try await tmdb.send(TMDB.movie(tmdbID).details)
                found = Match(
                    tmdbID: details.id,
                    title: details.title,
                    year: details.year,
                    popularity: details.popularity
                )
            } else {
                found = try await tmdb.send(TMDB.search.movies(movie.title)).bestMatch(for: movie.title).map {
                    Match(tmdbID: $0.id, title: $0.title, year: $0.year, popularity: $0.popularity)
                }
            }
        } catch .cancelled {
            return .failed(.cancelled)
        } catch {
            let written = try await store.recordFailure(of: movie.id, reason: Self.reason(error))
            return written ? .failed(error) : .removed
        }
        guard let found else {
            let written = try await store.recordFailure(of: movie.id, reason: Self.noMatchReason(movie.title))
            return written ? .noMatch : .removed
        }
        let written = try await store.recordRating(
            of: movie.id,
            tmdbID: found.tmdbID,
            popularity: found.popularity
        )
        return written ? .rated(found) : .removed
    }

    /// Rates every movie whose rating is pending or older than `staleAfter`, at most
    /// `concurrency` lookups at a time, each result committed as it arrives; `progress` gets
    /// (done, total) after each.
    ///
    /// - Throws: ``FavoritesError`` when the database fails; lookups that fail are recorded
    ///   and counted in the summary instead.
    public func refresh(
        staleAfter: Duration,
        concurrency: Int = 4,
        now: Date = Date(),
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws(FavoritesError) -> Summary {
        let movies = try await store.moviesNeedingRating(staleAfter: staleAfter, now: now)
        var summary = Summary(total: movies.count, rated: 0, failures: [], firstError: nil)
        progress(0, movies.count)
        guard !movies.isEmpty else { return summary }
        let width = max(1, concurrency)
        let outcomes = await withTaskGroup(of: (Movie, Result<Outcome, FavoritesError>).self) { group in
            var pending = movies[...]
            var outcomes: [(Movie, Result<Outcome, FavoritesError>)] = []
            func startNext() {
                guard let movie = pending.popFirst() else { return }
                group.addTask {
                    do throws(FavoritesError) {
                        return (movie, .success(try await rate(movie)))
                    } catch {
                        return (movie, .failure(error))
                    }
                }
            }
            for _ in 0..<width { startNext() }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                progress(outcomes.count, movies.count)
                if case .failure = outcome.1 {
                    group.cancelAll()
                    pending = []
                } else {
                    startNext()
                }
            }
            return outcomes
        }
        for (movie, result) in outcomes {
            switch result {
            case .failure(let error):
                throw error
            case .success(.rated):
                summary.rated += 1
            case .success(.noMatch):
                summary.failures.append((movie.title, Self.noMatchReason(movie.title)))
            case .success(.failed(let error)):
                summary.failures.append((movie.title, Self.reason(error)))
                if summary.firstError == nil { summary.firstError = error }
            case .success(.removed):
                summary.total -= 1
            }
        }
        return summary
    }

    /// The reason recorded for a title TMDB has no movie for.
    public static func noMatchReason(_ title: String) -> String {
        "TMDB has no movie titled '\(title)'"
    }

    /// The reason a lookup failed, as recorded with the movie: TMDB's own message for an
    /// error status, the engine's message otherwise.
    public static func reason(_ error: RequestError) -> String {
        guard let failure = error.httpFailure else { return error.message }
        let said = failure.bodyExcerpt.isEmpty ? "" : ": \(failure.bodyExcerpt)"
        return "TMDB answered \(failure.status) \(failure.reason)\(said)"
    }
}
