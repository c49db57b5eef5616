public import Courier
public import Foundation

/// Talks to TMDB, or to anything that answers like it (a stand-in, `courier replay`).
///
/// TMDB's error bodies (`{"status_code": 7, "status_message": "Invalid API key…"}`) surface as
/// `RequestError`s whose message quotes TMDB's `status_message`.
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let tmdb = TMDBClient(credentials: .accessToken(token), transport: transport)
///     if let dune = try await tmdb.bestMatch(for: "Dune") {
///         print(dune.title, dune.popularity)
///     }
/// }
/// ```
public struct TMDBClient: Sendable {
    /// The client that sends the requests, its base URL set to TMDB and its middleware adding
    /// the credentials.
    public let client: HTTPClient

    /// A TMDB client that sends its requests through `client`, which must already carry the
    /// base URL and credentials.
    public init(client: HTTPClient) {
        self.client = client
    }

    /// A TMDB client for the service at `baseURL` (the real one by default).
    ///
    /// - Parameters:
    ///   - baseURL: The service: TMDB itself, or a stand-in.
    ///   - credentials: Added to every request; `nil` for a stand-in that needs none.
    ///   - transport: The transport requests go through.
    ///   - securityPolicy: Which hosts may be reached over cleartext HTTP.
    ///   - timeout: How long one request may take.
    ///   - middleware: Runs before the credentials are added, so a recorder never sees them.
    public init(
        baseURL: URL = TMDBAPI.defaultBaseURL,
        credentials: TMDBCredentials?,
        transport: any HTTPTransport,
        securityPolicy: TransportSecurityPolicy = .default,
        timeout: Duration = .seconds(15),
        middleware: [any Middleware] = []
    ) {
        let authentication: [any Middleware] = credentials.map { [$0.authentication] } ?? []
        let configuration = HTTPClient.Configuration(
            baseURL: baseURL,
            securityPolicy: securityPolicy,
            timeout: timeout,
            middleware: middleware + authentication
        )
        self.init(client: HTTPClient(transport: transport, configuration: configuration))
    }

    /// One page of movies whose title matches `query`; see ``TMDBAPI/searchMovies(_:page:)``.
    ///
    /// - Throws: `RequestError`: `.unauthorized` for missing or wrong credentials,
    ///   `.clientError`/`.serverError` with TMDB's message, `.transport` when TMDB cannot be
    ///   reached, `.decoding` when the answer is not a TMDB page.
    public func searchMovies(_ query: String, page: Int = 1) async throws(RequestError) -> MoviePage {
        try await client.send(TMDBAPI.searchMovies(query, page: page))
    }

    /// The movie TMDB most likely means by `title`: see ``MoviePage/bestMatch(for:)``.
    public func bestMatch(for title: String) async throws(RequestError) -> MovieSummary? {
        try await searchMovies(title).bestMatch(for: title)
    }

    /// One page of the best-rated movies.
    public func topRated(page: Int = 1) async throws(RequestError) -> MoviePage {
        try await client.send(TMDBAPI.topRated(page: page))
    }

    /// One movie's details; `.clientError` with status 404 when TMDB has no movie `id`.
    public func movie(id: Int) async throws(RequestError) -> MovieDetails {
        try await client.send(TMDBAPI.movie(id: id))
    }
}
