public import Courier
public import Foundation

/// Searches the iTunes store, or anything that answers like it.
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let store = StoreClient(transport: transport)
///     let found = try await store.search("Stephen King", category: .ebook)
///     for result in found.results { print(result.name, result.price ?? 0) }
/// }
/// ```
public struct StoreClient: Sendable {
    /// The client that sends the searches, its base URL set to the store.
    public let client: HTTPClient

    /// A store client that sends searches through `client`, whose configuration's base URL is
    /// the store's address.
    public init(client: HTTPClient) {
        self.client = client
    }

    /// A store client for the store at `baseURL` (the real one by default).
    public init(baseURL: URL = StoreAPI.defaultBaseURL, transport: any HTTPTransport, timeout: Duration = .seconds(15))
    {
        self.init(client: HTTPClient(transport: transport, configuration: .init(baseURL: baseURL, timeout: timeout)))
    }

    /// The items matching `term`, sorted by name; see ``StoreAPI/search(term:category:country:language:limit:)``.
    ///
    /// - Throws: `RequestError`: `.transport` when the store cannot be reached, `.clientError`
    ///   or `.serverError` with the store's explanation, `.decoding` when the answer is not a
    ///   search response, `.cancelled` when the task is cancelled.
    public func search(
        _ term: String,
        category: StoreCategory = .all,
        country: String? = nil,
        language: String? = nil,
        limit: Int = StoreAPI.maximumLimit
    ) async throws(RequestError) -> SearchResults {
        try await client.send(
            StoreAPI.search(term: term, category: category, country: country, language: language, limit: limit)
        )
    }
}
