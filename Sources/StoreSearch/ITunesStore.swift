public import Courier
public import Foundation

/// The iTunes Search API as a value: its search is an `Endpoint` that knows it answers with
/// ``SearchResults``. The path is relative to the store's address, the base URL of a client made
/// with ``Courier/HTTPClient/Configuration/iTunesStore(baseURL:securityPolicy:timeout:middleware:cache:)``.
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let store = HTTPClient(transport: transport, configuration: .iTunesStore())
///     let found = try await store.send(ITunesStore.search(term: "Stephen King", category: .ebook))
///     for result in found.results { print(result.name, result.price ?? 0) }
/// }
/// ```
///
/// A search throws `RequestError`: `.transport` when the store cannot be reached, `.clientError`
/// or `.serverError` with the store's explanation, `.decoding` when the answer is not a search
/// response, `.cancelled` when the task is cancelled.
public enum ITunesStore {
    // A literal that parses: the unwrap cannot fail.
    /// `https://itunes.apple.com`.
    public static let defaultBaseURL = URL(string: "https://itunes.apple.com")!

    /// The most results the Search API returns for one search.
    public static let maximumLimit = 200

    /// Items matching `term`, sorted by name. The term is sent exactly as typed: the engine percent-encodes every character
    /// outside RFC 3986's unreserved set, so `&`, `+`, `=`, `#`, `%`, emoji and any script
    /// arrive intact.
    ///
    /// - Parameters:
    ///   - term: The words to search for.
    ///   - category: What kind of items; ``StoreCategory/all`` sends no `entity`.
    ///   - country: A two-letter store country code (`us`, `fr`); `nil` for the API's default.
    ///   - language: `en_us` or `ja_jp`, the only two the API knows (``StoreLocale/languages``);
    ///     `nil` for its default.
    ///   - limit: 1 to ``maximumLimit``.
    /// - Returns: The request, answered with ``SearchResults``.
    public static func search(
        term: String,
        category: StoreCategory = .all,
        country: String? = nil,
        language: String? = nil,
        limit: Int = maximumLimit
    ) -> Endpoint<SearchResults> {
        var query = [URLQueryItem(name: "term", value: term), URLQueryItem(name: "limit", value: String(limit))]
        if let entity = category.entity { query.append(URLQueryItem(name: "entity", value: entity)) }
        if let country { query.append(URLQueryItem(name: "country", value: country)) }
        if let language { query.append(URLQueryItem(name: "lang", value: language)) }
        return Endpoint<SearchResponse>(path: "/search", query: query).map { SearchResults($0) }
    }
}
