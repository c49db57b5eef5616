public import Courier
public import Foundation
import HTTPTypes

/// Searches a library service: pages of locations and books with their totals.
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let library = LibraryClient(service: URL(string: "http://127.0.0.1:8080")!, transport: transport)
///     let page = try await library.locations(country: "France")
///     print("\(page.items.count) of \(page.total)")
/// }
/// ```
public struct LibraryClient: Sendable {
    /// The client that sends the requests, its base URL set to the service.
    public let client: HTTPClient

    /// Creates a library client that sends requests through `client`, whose configuration's
    /// base URL is the service's address.
    public init(client: HTTPClient) {
        self.client = client
    }

    /// Creates a library client for the service at `service`.
    public init(service: URL, transport: any HTTPTransport, timeout: Duration = .seconds(10)) {
        self.init(client: HTTPClient(transport: transport, configuration: .init(baseURL: service, timeout: timeout)))
    }

    // MARK: - Searching

    /// One page of the libraries whose country starts with `country` (case and accents ignored).
    ///
    /// - Throws: `RequestError`: `.clientError` with the service's explanation for a bad
    ///   `limit` or `offset`, `.transport` when the service is not reachable.
    public func locations(
        country: String,
        limit: Int? = nil,
        offset: Int = 0
    ) async throws(RequestError) -> Page<Location> {
        try await page(
            LibraryAPI.locations(country: country, limit: limit, offset: offset == 0 ? nil : offset),
            offset: offset
        )
    }

    /// One page of the books whose title starts with `titlePrefix` (case and accents ignored).
    ///
    /// - Throws: `RequestError`: `.clientError` with the service's explanation for a bad
    ///   `limit` or `offset`, `.transport` when the service is not reachable.
    public func books(titlePrefix: String, limit: Int? = nil, offset: Int = 0) async throws(RequestError) -> Page<Book>
    {
        try await page(
            LibraryAPI.catalog(titlePrefix: titlePrefix, limit: limit, offset: offset == 0 ? nil : offset),
            offset: offset
        )
    }

    /// The service's health report.
    public func health() async throws(RequestError) -> Health {
        try await client.send(LibraryAPI.health)
    }

    /// The page and its total, from `X-Total-Count`; a service that sends no total (the
    /// chapter's original Node service, say) is taken to have returned everything from `offset`.
    private func page<Item>(_ endpoint: Endpoint<[Item]>, offset: Int) async throws(RequestError) -> Page<Item> {
        let response = try await client.response(for: endpoint)
        let total = response.head.headerFields[.totalCount].flatMap { Int($0) } ?? offset + response.value.count
        return Page(items: response.value, total: total, offset: offset)
    }
}
