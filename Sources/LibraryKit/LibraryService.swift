public import Courier
import Foundation
public import HTTPTypes

/// The library service's API as values: each search is an `Endpoint` that knows it answers
/// with a ``Page``. Paths are relative to the service's address, the base URL of a client made
/// with ``Courier/HTTPClient/Configuration/library(service:securityPolicy:timeout:)``.
///
/// ```swift
/// let library = HTTPClient(transport: transport, configuration: .library(service: service))
/// let page = try await library.send(LibraryService.locations(country: "France"))
/// print("\(page.items.count) of \(page.total)")
/// let next = try await library.send(LibraryService.catalog(titlePrefix: "the ", limit: 50, offset: 50))
/// let health = try await library.send(LibraryService.health)
/// ```
///
/// Every search throws `RequestError`: `.clientError` with the service's explanation for a bad
/// `limit` or `offset`, `.transport` when the service is not reachable.
public enum LibraryService {
    /// The largest page the service returns.
    public static let maximumLimit = 1000
    /// The page size when a request names none.
    public static let defaultLimit = 100

    // MARK: - Searching

    /// One page of the libraries whose country starts with `country`, ignoring case and
    /// accents; all of them for "".
    ///
    /// - Parameters:
    ///   - country: The start of the country's name.
    ///   - limit: At most this many (the service allows 0 to ``maximumLimit``; `nil` for its
    ///     default, ``defaultLimit``).
    ///   - offset: Skip this many results first.
    /// - Returns: The request, answered with a page of ``Location``s and their total.
    public static func locations(country: String, limit: Int? = nil, offset: Int = 0) -> Endpoint<Page<Location>> {
        page(path: "/locations", query: URLQueryItem(name: "country", value: country), limit: limit, offset: offset)
    }

    /// One page of the books whose title starts with `titlePrefix`, ignoring case and accents;
    /// all of them for "".
    ///
    /// - Parameters:
    ///   - titlePrefix: The start of the title.
    ///   - limit: At most this many (the service allows 0 to ``maximumLimit``; `nil` for its
    ///     default, ``defaultLimit``).
    ///   - offset: Skip this many results first.
    /// - Returns: The request, answered with a page of ``Book``s and their total.
    public static func catalog(titlePrefix: String, limit: Int? = nil, offset: Int = 0) -> Endpoint<Page<Book>> {
        page(path: "/catalog", query: URLQueryItem(name: "q", value: titlePrefix), limit: limit, offset: offset)
    }

    /// The service's health and the size of its data.
    public static var health: Endpoint<Health> { Endpoint(path: "/health") }

    // MARK: - Pages

    /// A search's page and its total, from `X-Total-Count`. A service that sends no total (the
    /// chapter's original Node service, say) is taken to have returned everything from `offset`.
    private static func page<Item: Decodable & Sendable>(
        path: String,
        query: URLQueryItem,
        limit: Int?,
        offset: Int
    ) -> Endpoint<Page<Item>> {
        var items = [query]
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        if offset != 0 { items.append(URLQueryItem(name: "offset", value: String(offset))) }
        return Endpoint<[Item]>(path: path, query: items).mapResponse { found, head in
            let total = head.headerFields[.totalCount].flatMap { Int($0) } ?? offset + found.count
            return Page(items: found, total: total, offset: offset)
        }
    }
}

extension HTTPField.Name {
    // The literal is a valid field-name token, so the initializer cannot return nil.
    /// `X-Total-Count`: how many results a search has on all pages.
    public static let totalCount = HTTPField.Name("X-Total-Count")!
}
