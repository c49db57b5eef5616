public import Courier
public import Foundation

extension HTTPClient.Configuration {
    /// A configuration for TMDB, or for anything that answers like it (a stand-in,
    /// a replayed recording): its base URL, and the credentials added to every request.
    ///
    /// ```swift
    /// let tmdb = HTTPClient(transport: transport, configuration: .tmdb(credentials: .accessToken(token)))
    /// if let dune = try await tmdb.send(TMDB.search.movies("Dune")).bestMatch(for: "Dune") {
    ///     print(dune.title, dune.popularity)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The service: TMDB itself, or a stand-in.
    ///   - credentials: Added to every request; `nil` for a stand-in that needs none.
    ///   - securityPolicy: Which hosts may be reached over cleartext HTTP.
    ///   - timeout: How long one request may take.
    ///   - middleware: Runs before the credentials are added, so a recorder never sees them.
    /// - Returns: The configuration; pass it to `HTTPClient(transport:configuration:)`.
    public static func tmdb(
        baseURL: URL = TMDB.defaultBaseURL,
        credentials: TMDBCredentials?,
        securityPolicy: TransportSecurityPolicy = .default,
        timeout: Duration = .seconds(15),
        middleware: [any Middleware] = []
    ) -> Self {
        let authentication: [any Middleware] = credentials.map { [$0.authentication] } ?? []
        return Self(
            baseURL: baseURL,
            securityPolicy: securityPolicy,
            timeout: timeout,
            middleware: middleware + authentication
        )
    }
}
