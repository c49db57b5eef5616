public import Foundation

/// A book in the catalog.
///
/// Encoded with the service's snake_case keys; only the title is required, as in the chapter's
/// own `catalog.json`, and the other fields are left out when absent:
///
/// ```json
/// {"title": "Middlemarch", "author": "George Eliot", "year": 1871}
/// {"title": "Beowulf"}
/// ```
public struct Book: Codable, Sendable, Hashable {
    /// The title.
    public var title: String
    /// The author, if known.
    public var author: String?
    /// The year of first publication, if known; negative for years before the common era.
    public var year: Int?
    /// An ISBN-10 or ISBN-13 of one edition, if known.
    public var isbn: String?
    /// An image of the cover, if known.
    public var coverURL: URL?

    /// Creates a book.
    public init(title: String, author: String? = nil, year: Int? = nil, isbn: String? = nil, coverURL: URL? = nil) {
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
