public import Foundation

/// A book in the catalog.
///
/// Encoded with the service's snake_case keys; `isbn` and `cover_url` are left out when absent:
///
/// ```json
/// {"title": "Middlemarch", "author": "George Eliot", "year": 1871}
/// ```
public struct Book: Codable, Sendable, Hashable {
    /// The title.
    public var title: String
    /// The author, or "Anonymous".
    public var author: String
    /// The year of first publication; negative for years before the common era.
    public var year: Int
    /// An ISBN-10 or ISBN-13 of one edition, if known.
    public var isbn: String?
    /// An image of the cover, if known.
    public var coverURL: URL?

    /// Creates a book.
    public init(title: String, author: String, year: Int, isbn: String? = nil, coverURL: URL? = nil) {
        self.title = title
        self.author = author
        self.year = year
        self.isbn = isbn
        self.coverURL = coverURL
    }

    enum CodingKeys: String, CodingKey {
        case title
        case author
        case year
        case isbn
        case coverURL = "cover_url"
    }
}
