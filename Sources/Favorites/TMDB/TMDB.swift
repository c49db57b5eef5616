public import Courier
public import Foundation

/// The TMDB API as values: each resource is a value, and each request to it an `Endpoint` that
/// knows what its answer decodes to. Paths are relative to TMDB's address, the base URL of a
/// client made with ``Courier/HTTPClient/Configuration/tmdb(baseURL:credentials:securityPolicy:timeout:middleware:)``.
///
/// ```swift
/// let tmdb = HTTPClient(transport: transport, configuration: .tmdb(credentials: .accessToken(token)))
/// let found = try await tmdb.send(TMDB.search.movies("Dune"))
/// let details = try await tmdb.send(TMDB.movie(438631).details)
/// let chart = try await tmdb.send(TMDB.movies.topRated(page: 2))
/// ```
///
/// TMDB's error bodies (`{"status_code": 7, "status_message": "Invalid API key…"}`) surface as
/// `RequestError`s whose message quotes TMDB's `status_message`: `.unauthorized` for missing
/// or wrong credentials, `.clientError` with status 404 for a movie TMDB does not have.
public enum TMDB {
    // A literal that parses: the unwrap cannot fail.
    /// `https://api.themoviedb.org`.
    public static let defaultBaseURL = URL(string: "https://api.themoviedb.org")!

    /// The highest page TMDB serves for a list, whatever `total_pages` says.
    public static let maximumPage = 500

    /// TMDB's searches, `/3/search`.
    public static var search: Search { Search() }

    /// TMDB's lists of movies, `/3/movie`.
    public static var movies: Movies { Movies() }

    /// One movie, `/3/movie/{id}`.
    ///
    /// - Parameter id: The movie's TMDB id.
    /// - Returns: The movie's resource; its ``Movie/details`` is the request.
    public static func movie(_ id: Int) -> Movie { Movie(id: id) }

    // MARK: - Resources

    /// TMDB's searches.
    public struct Search: Sendable {
        /// Movies whose title matches `query`, most relevant first, twenty a page; the page's
        /// ``MoviePage/bestMatch(for:)`` is the movie `query` most likely means.
        ///
        /// - Parameters:
        ///   - query: The title, or words of it.
        ///   - page: 1 to ``TMDB/maximumPage``.
        /// - Returns: The request, answered with a ``MoviePage``.
        public func movies(_ query: String, page: Int = 1) -> Endpoint<MoviePage> {
            Endpoint(
                path: "/3/search/movie",
                query: [URLQueryItem(name: "query", value: query), URLQueryItem(name: "page", value: String(page))]
            )
        }
    }

    /// TMDB's lists of movies.
    public struct Movies: Sendable {
        /// The best-rated movies, twenty a page.
        ///
        /// - Parameter page: 1 to ``TMDB/maximumPage``.
        /// - Returns: The request, answered with a ``MoviePage``.
        public func topRated(page: Int = 1) -> Endpoint<MoviePage> {
            Endpoint(path: "/3/movie/top_rated", query: [URLQueryItem(name: "page", value: String(page))])
        }
    }

    /// One movie.
    public struct Movie: Sendable, Hashable {
        /// The movie's TMDB id.
        public var id: Int

        /// The movie's details; a 404 `RequestError.clientError` when TMDB has no such movie.
        public var details: Endpoint<MovieDetails> { Endpoint(path: "/3/movie/\(id)") }
    }
}
