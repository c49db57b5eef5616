public import Courier
public import Foundation

/// The iTunes Search API's endpoint, relative to the store's address (the client's base URL).
///
/// ```swift
/// let client = HTTPClient(transport: transport, configuration: .init(baseURL: StoreAPI.defaultBaseURL))
/// let page = try await client.send(StoreAPI.search(term: "Stephen King", category: .ebook))
/// ```
public enum StoreAPI {
    // A literal that parses: the unwrap cannot fail.
    /// `https://itunes.apple.com`.
    public static let defaultBaseURL = URL(string: "https://itunes.apple.com")!

    /// The most results the Search API returns for one search.
    public static let maximumLimit = 200

    /// Items matching `term`, exactly as typed: the engine percent-encodes every character
    /// outside RFC 3986's unreserved set, so `&`, `+`, `=`, `#`, `%`, emoji and any script
    /// arrive intact.
    ///
    /// - Parameters:
    ///   - term: The words to search for.
    ///   - category: What kind of items; ``StoreCategory/all`` sends no `entity`.
    ///   - country: A two-letter store country code (`us`, `fr`); `nil` for the API's default.
    ///   - language: `en_us` or `ja_jp`, the only two the API knows; `nil` for its default.
    ///   - limit: 1 to ``maximumLimit``.
    public static func search(
        term: String,
        category: StoreCategory = .all,
        country: String? = nil,
        language: String? = nil,
        limit: Int = 200
    ) -> Endpoint<SearchResults> {
        var query = [URLQueryItem(name: "term", value: term), URLQueryItem(name: "limit", value: String(limit))]
        if let entity = category.entity { query.append(URLQueryItem(name: "entity", value: entity)) }
        if let country { query.append(URLQueryItem(name: "country", value: country)) }
        if let language { query.append(URLQueryItem(name: "lang", value: language)) }
        return Endpoint<SearchResponse>(path: "/search", query: query).map { SearchResults($0) }
    }
}
