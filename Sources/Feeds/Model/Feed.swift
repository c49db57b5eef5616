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
    /// A picture of the feed, an absolute `http` or `https` URL: RSS `<image><url>`, `itunes:image`, Atom `logo`, JSON
    /// Feed `icon`.
    public var image: String?
    /// A small icon of the feed, an absolute `http` or `https` URL: Atom `icon`, JSON Feed `favicon`.
    public var icon: String?
    /// Whether a podcast says it is explicit (`itunes:explicit`: `yes`, `true` or `explicit`;
    /// `no`, `false` or `clean`); `nil` when it does not say.
    public var isExplicit: Bool?
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
        image: String? = nil,
        icon: String? = nil,
        isExplicit: Bool? = nil,
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
        self.image = image
        self.icon = icon
        self.isExplicit = isExplicit
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
    /// The full content, as it was given (HTML for HTML content, XHTML's markup included).
    /// Never show it as it is: ``safeContent`` is the form for people.
    public var content: String?
    /// What the relative links in ``content`` are relative to: the `xml:base` in effect there,
    /// else the document's address.
    public var contentBase: String?
    /// What ``content`` is: `html`, `xhtml`, `text` or a media type, as Atom's `type` says;
    /// `nil` for RSS's content, which is HTML.
    public var contentType: String?
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
    /// A picture of the entry, an absolute `http` or `https` URL: `itunes:image`, JSON Feed `image`.
    public var image: String?
    /// Media RSS `media:thumbnail` and `media:content` (in `media:group` too), in order.
    public var media: [MediaItem]
    /// A podcast episode's length in seconds (`itunes:duration`: `SS`, `MM:SS` or `HH:MM:SS`).
    public var duration: Int?
    /// A podcast episode's number (`itunes:episode`).
    public var episode: Int?
    /// A podcast episode's season (`itunes:season`).
    public var season: Int?
    /// Whether a podcast episode says it is explicit (`itunes:explicit`), as ``Feed/isExplicit``.
    public var isExplicit: Bool?

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
        enclosures: [Enclosure] = [],
        contentBase: String? = nil,
        contentType: String? = nil,
        image: String? = nil,
        media: [MediaItem] = [],
        duration: Int? = nil,
        episode: Int? = nil,
        season: Int? = nil,
        isExplicit: Bool? = nil
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
        self.contentBase = contentBase
        self.contentType = contentType
        self.image = image
        self.media = media
        self.duration = duration
        self.episode = episode
        self.season = season
        self.isExplicit = isExplicit
    }

    /// ``content`` as HTML that is safe to show: only an allow-list of elements and
    /// attributes, links made absolute against ``contentBase``, and no scripts, styles, event
    /// handlers, frames, forms or `javascript:` URLs (``FeedHTML/sanitized(_:base:maximumLength:)``).
    /// Plain-text content comes back escaped, its line breaks as `<br>`.
    public var safeContent: String? {
        safeContent(maximumLength: 16 << 20)
    }

    /// ``safeContent``, stopped at about `maximumLength` UTF-8 bytes: HTML where
    /// ``FeedHTML/sanitized(_:base:maximumLength:)`` stops it, text cut there before it is escaped.
    public func safeContent(maximumLength: Int) -> String? {
        guard let content else { return nil }
        switch contentType {
        case nil, "html", "xhtml":
            return FeedHTML.sanitized(
                content,
                base: contentBase.flatMap(URL.init(string:)),
                maximumLength: maximumLength
            )
        default:
            let text = String(decoding: content.utf8.prefix(max(0, maximumLength)), as: UTF8.self)
            return FeedHTML.escaped(text).replacingOccurrences(of: "\n", with: "<br>\n")
        }
    }
}

/// A Media RSS `media:thumbnail` or `media:content`.
public struct MediaItem: Sendable, Hashable, Codable {
    /// Which element it is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// `media:thumbnail`: a picture of the entry.
        case thumbnail
        /// `media:content`: a media object (a video, a picture, a sound).
        case content
    }

    /// Thumbnail or content.
    public var kind: Kind
    /// Where it is, an absolute `http` or `https` URL.
    public var url: String
    /// Its media type (`media:content`'s `type`).
    public var type: String?
    /// `image`, `audio`, `video`, `document` or `executable` (`media:content`'s `medium`).
    public var medium: String?
    /// Its width in pixels.
    public var width: Int?
    /// Its height in pixels.
    public var height: Int?
    /// Its length in seconds (`media:content`'s `duration`).
    public var duration: Int?
    /// Its size in bytes (`media:content`'s `fileSize`).
    public var fileSize: Int?

    /// A media item.
    public init(
        kind: Kind,
        url: String,
        type: String? = nil,
        medium: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        duration: Int? = nil,
        fileSize: Int? = nil
    ) {
        self.kind = kind
        self.url = url
        self.type = type
        self.medium = medium
        self.width = width
        self.height = height
        self.duration = duration
        self.fileSize = fileSize
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
