public import Courier
import Foundation
public import HTTPTypes

/// The library service's endpoints, relative to the service's address (the client's base URL).
///
/// ```swift
/// let client = HTTPClient(transport: transport, configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080")))
/// let french: [Location] = try await client.send(LibraryAPI.locations(country: "fr"))
/// ```
public enum LibraryAPI {
    /// The largest page the service returns.
    public static let maximumLimit = 1000
    /// The page size when a request names none.
    public static let defaultLimit = 100

    /// Libraries whose country starts with `country`, ignoring case and accents; all of them for "".
    ///
    /// - Parameters:
    ///   - country: The start of the country's name.
    ///   - limit: At most this many (the service allows 0 to ``maximumLimit``; `nil` for its default, ``defaultLimit``).
    ///   - offset: Skip this many results first.
    public static func locations(country: String, limit: Int? = nil, offset: Int? = nil) -> Endpoint<[Location]> {
        Endpoint(path: "/locations", query: [URLQueryItem(name: "country", value: country)] + paging(limit, offset))
    }

    /// Books whose title starts with `titlePrefix`, ignoring case and accents; all of them for "".
    ///
    /// - Parameters:
    ///   - titlePrefix: The start of the title.
    ///   - limit: At most this many (the service allows 0 to ``maximumLimit``; `nil` for its default, ``defaultLimit``).
    ///   - offset: Skip this many results first.
    public static func catalog(titlePrefix: String, limit: Int? = nil, offset: Int? = nil) -> Endpoint<[Book]> {
        Endpoint(path: "/catalog", query: [URLQueryItem(name: "q", value: titlePrefix)] + paging(limit, offset))
    }

    /// The service's health and the size of its data.
    public static var health: Endpoint<Health> { Endpoint(path: "/health") }

    private static func paging(_ limit: Int?, _ offset: Int?) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let offset { items.append(URLQueryItem(name: "offset", value: String(offset))) }
        return items
    }
}

extension HTTPField.Name {
    // The literal is a valid field-name token, so the initializer cannot return nil.
    /// `X-Total-Count`: how many results a search has on all pages.
    public static let totalCount = HTTPField.Name("X-Total-Count")!
}
