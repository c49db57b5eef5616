public import Foundation

/// A feed in any of the common formats, in one shape: Atom 1.0 and 0.3, RSS 2.0, 0.9x and 1.0
/// (RDF), and JSON Feed.
///
/// Text is plain text for display (markup removed, references decoded, white space collapsed);
/// links are absolute; dates are instants.
public struct Feed: Sendable, Hashable, Codable {
    /// The format, in feedparser's names: `atom10`, `rss20`, `rss10`, `jsonfeed`….
    public var version: String?
    /// The feed's title.
    public var title: String?
    /// The web page the feed belongs to.
    public var link: String?
    /// The feed's description or tagline.
    public var subtitle: String?
    /// The language, such as `en-us`.
    public var language: String?
    /// When the feed last changed.
    public var updated: Date?
    /// The feed's authors.
    public var authors: [Person]
    /// The entries, in document order.
    public var entries: [Entry]
    /// False when the document was not well-formed and was read leniently.
    public var isWellFormed: Bool
    /// Why the document is not well-formed, when it is not.
    public var problem: String?

    /// An empty feed.
    public init(
        version: String? = nil,
        title: String? = nil,
        link: String? = nil,
        subtitle: String? = nil,
        language: String? = nil,
        updated: Date? = nil,
        authors: [Person] = [],
        entries: [Entry] = [],
        isWellFormed: Bool = true,
        problem: String? = nil
    ) {
        self.version = version
        self.title = title
        self.link = link
        self.subtitle = subtitle
        self.language = language
        self.updated = updated
        self.authors = authors
        self.entries = entries
        self.isWellFormed = isWellFormed
        self.problem = problem
    }
}

/// One item of a feed.
public struct Entry: Sendable, Hashable, Codable {
    /// A permanent identifier: Atom `id`, RSS `guid` or RDF `about`.
    public var id: String?
    /// The title.
    public var title: String?
    /// The web page of the entry.
    public var link: String?
    /// A summary, as plain text.
    public var summary: String?
    /// The full content, as it was given (HTML for HTML content).
    public var content: String?
    /// When it was first published.
    public var published: Date?
    /// When it last changed.
    public var updated: Date?
    /// Its authors.
    public var authors: [Person]
    /// Its categories or tags.
    public var categories: [String]
    /// Attached media.
    public var enclosures: [Enclosure]

    /// An empty entry.
    public init(
        id: String? = nil,
        title: String? = nil,
        link: String? = nil,
        summary: String? = nil,
        content: String? = nil,
        published: Date? = nil,
        updated: Date? = nil,
        authors: [Person] = [],
        categories: [String] = [],
        enclosures: [Enclosure] = []
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.summary = summary
        self.content = content
        self.published = published
        self.updated = updated
        self.authors = authors
        self.categories = categories
        self.enclosures = enclosures
    }
}

/// An author or contributor.
public struct Person: Sendable, Hashable, Codable {
    /// The name.
    public var name: String?
    /// The e-mail address.
    public var email: String?
    /// A web page about them.
    public var uri: String?

    /// A person.
    public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
        self.name = name
        self.email = email
        self.uri = uri
    }
}

/// A file attached to an entry (a podcast episode, say).
public struct Enclosure: Sendable, Hashable, Codable {
    /// Where the file is.
    public var url: String
    /// Its media type.
    public var type: String?
    /// Its size in bytes.
    public var length: Int?

    /// An enclosure.
    public init(url: String, type: String? = nil, length: Int? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}
