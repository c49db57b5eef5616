public import Courier
public import Foundation

extension HTTPClient.Configuration {
    /// A configuration for the iTunes store, or for anything that answers like it (a stand-in,
    /// a replayed recording), to send ``ITunesStore``'s endpoints.
    ///
    /// ```swift
    /// let store = HTTPClient(transport: transport, configuration: .iTunesStore())
    /// let session = SearchSession(store: store)
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The store: the real one by default, or a stand-in.
    ///   - securityPolicy: Which hosts may be reached over cleartext HTTP.
    ///   - timeout: How long one search may take.
    ///   - middleware: Runs around every search (a recorder, logging).
    ///   - cache: Where answers are kept: the store marks a search fresh for a day
    ///     (`max-age`), so a repeated search is answered from it, as the chapter's session
    ///     cache answers it. `nil` (the default) keeps nothing.
    /// - Returns: The configuration; pass it to `HTTPClient(transport:configuration:)`.
    public static func iTunesStore(
        baseURL: URL = ITunesStore.defaultBaseURL,
        securityPolicy: TransportSecurityPolicy = .default,
        timeout: Duration = .seconds(15),
        middleware: [any Middleware] = [],
        cache: HTTPCache? = nil
    ) -> Self {
        Self(baseURL: baseURL, securityPolicy: securityPolicy, timeout: timeout, middleware: middleware, cache: cache)
    }
}
