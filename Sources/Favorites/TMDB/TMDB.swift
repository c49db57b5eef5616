public import Courier
public import Foundation

/// The TMDB endpoints Courier uses, relative to TMDB's address (the client's base URL).
///
/// ```swift
/// let client = TMDBClient(credentials: .accessToken(token), transport: transport)
/// let page = try await client.client.send(TMDBAPI.searchMovies("Dune"))
/// ```
public enum TMDBAPI {
    // A literal that parses: the unwrap cannot fail.
    /// `https://api.themoviedb.org`.
    public static let defaultBaseURL = URL(string: "https://api.themoviedb.org")!

    /// The highest page TMDB serves for a list, whatever `total_pages` says.
    public static let maximumPage = 500

    /// Movies whose title matches `query`, most relevant first, twenty a page.
    public static func searchMovies(_ query: String, page: Int = 1) -> Endpoint<MoviePage> {
        Endpoint(
            path: "/3/search/movie",
            query: [URLQueryItem(name: "query", value: query), URLQueryItem(name: "page", value: String(page))]
        )
    }

    /// The best-rated movies, twenty a page; `page` is 1 to ``maximumPage``.
    public static func topRated(page: Int = 1) -> Endpoint<MoviePage> {
        Endpoint(path: "/3/movie/top_rated", query: [URLQueryItem(name: "page", value: String(page))])
    }

    /// One movie's details.
    public static func movie(id: Int) -> Endpoint<MovieDetails> {
        Endpoint(path: "/3/movie/\(id)")
    }
}
