/// The rules that map the elements of every feed format onto ``Feed`` and ``Entry``: which
/// element is which (by namespace and local name), and what a field element sets where, with
/// feedparser's precedence. ``FeedBuilder`` applies them; this file is the place to read or
/// change what Courier takes from a feed.
enum FeedRules {
    /// An element the builder acts on, whatever its prefix.
    enum Element: Int, Hashable, CaseIterable {
        // Structure.
        case feed, rss, rdf, channel, entry, item, author, contributor
        // Parts of a person.
        case name, email, uri, url
        // Read from attributes (or, without them, from text).
        case link, enclosure, category
        // Fields read from text.
        case title, mediaTitle, subtitle, description, summary, content, updated, lastBuildDate, published, id, guid,
            language, creator
        // Pictures and podcasts: RSS `image` (its `url`), Atom `logo` and `icon`, iTunes' fields.
        case image, logo, icon, duration, episode, season, explicit
        // Read from attributes: `itunes:image`, `media:thumbnail`, `media:content`.
        case itunesImage, mediaThumbnail, mediaContent
        /// Anything else: skipped, or part of a field's text.
        case other
    }

    /// Elements by namespace and local name (core names compared in lowercase: RSS is written in
    /// every case). The core namespace is RSS 0.9x/2.0, RSS 1.0 and Atom 1.0/0.3 alike.
    static let elements: [Name: Element] = {
        var table: [Name: Element] = [:]
        let rows: [(FeedNamespace, String, Element)] = [
            (.core, "feed", .feed), (.core, "rss", .rss), (.rdf, "RDF", .rdf), (.core, "channel", .channel),
            (.core, "entry", .entry), (.core, "item", .item),
            (.core, "author", .author), (.core, "contributor", .contributor),
            (.core, "name", .name), (.core, "email", .email), (.core, "uri", .uri), (.core, "url", .url),
            (.core, "link", .link), (.core, "enclosure", .enclosure),
            (.core, "category", .category), (.dc, "subject", .category),
            (.core, "title", .title), (.dc, "title", .title), (.media, "title", .mediaTitle),
            (.core, "subtitle", .subtitle), (.core, "tagline", .subtitle), (.itunes, "subtitle", .subtitle),
            (.core, "description", .description), (.core, "abstract", .description),
            (.core, "summary", .summary), (.itunes, "summary", .summary),
            (.core, "content", .content), (.content, "encoded", .content),
            (.core, "updated", .updated), (.core, "modified", .updated), (.dc, "date", .updated),
            (.dcterms, "modified", .updated), (.core, "lastbuilddate", .lastBuildDate),
            (.core, "published", .published), (.core, "pubdate", .published), (.core, "issued", .published),
            (.dcterms, "issued", .published),
            (.core, "id", .id), (.core, "guid", .guid),
            (.core, "language", .language), (.dc, "language", .language),
            (.dc, "creator", .creator), (.itunes, "author", .creator),
            (.core, "image", .image), (.core, "logo", .logo), (.core, "icon", .icon),
            (.itunes, "image", .itunesImage), (.itunes, "duration", .duration), (.itunes, "episode", .episode),
            (.itunes, "season", .season), (.itunes, "explicit", .explicit),
            (.media, "thumbnail", .mediaThumbnail), (.media, "content", .mediaContent),
        ]
        for (namespace, local, element) in rows { table[Name(namespace: namespace, local: local)] = element }
        return table
    }()

    /// An element's namespace and local name.
    struct Name: Hashable {
        var namespace: FeedNamespace
        var local: String
    }

    /// Where a field element stands: a direct child of the feed (or channel), or of an entry.
    enum Context: Hashable {
        case feed, entry
    }

    /// What a field's text becomes.
    enum Target {
        /// A text construct: plain text by Atom's `type`, or by how it looks.
        case title, mediaTitle, subtitle, summary
        /// The content as given, and the summary when there is none yet.
        case content
        case updated, published
        /// An `id` or `guid`: the entry's id, and its link when it is a permalink.
        case id
        /// A link given as text (Atom 0.3 with `rel`/`type`, or RSS).
        case link
        case language
        /// An author given as a name (`dc:creator`).
        case author
        case category
        /// A picture's URL as text (Atom `logo`, RSS `image`'s `url`) and Atom's `icon`.
        case image, icon
        /// iTunes' podcast fields.
        case duration, episode, season, explicit
    }

    /// Which occurrence of a field wins.
    enum Precedence {
        /// The first, even if empty (feedparser's titles).
        case first
        /// The first that has text: an empty one does not count.
        case firstWithText
        /// The last.
        case last
        /// Every one, in order.
        case all
    }

    /// A field element in a context, and what it sets.
    struct Field {
        var target: Target
        var precedence: Precedence
    }

    /// What a field element sets in a context; `nil` when it is skipped there.
    static func field(_ element: Element, in context: Context) -> Field? {
        fieldTable[element.rawValue * 2 + (context == .feed ? 0 : 1)]
    }

    /// What each field element sets, by context; an element in a context not listed is skipped.
    private static let fieldTable: [Field?] = {
        let rows: [(Element, Context, Target, Precedence)] = [
            (.title, .feed, .title, .first), (.title, .entry, .title, .first),
            (.mediaTitle, .entry, .mediaTitle, .firstWithText),
            (.subtitle, .feed, .subtitle, .last), (.description, .feed, .subtitle, .last),
            (.description, .entry, .summary, .last), (.summary, .entry, .summary, .last),
            (.content, .entry, .content, .last),
            (.updated, .feed, .updated, .last), (.lastBuildDate, .feed, .updated, .last),
            (.updated, .entry, .updated, .last),
            (.published, .entry, .published, .last),
            (.id, .feed, .id, .last), (.guid, .feed, .id, .last), (.id, .entry, .id, .last),
            (.guid, .entry, .id, .last),
            (.link, .feed, .link, .last), (.link, .entry, .link, .last),
            (.language, .feed, .language, .last),
            (.creator, .feed, .author, .all), (.creator, .entry, .author, .all),
            (.category, .entry, .category, .all),
            (.logo, .feed, .image, .last), (.icon, .feed, .icon, .last),
            (.explicit, .feed, .explicit, .last), (.explicit, .entry, .explicit, .last),
            (.duration, .entry, .duration, .last), (.episode, .entry, .episode, .last),
            (.season, .entry, .season, .last),
        ]
        var table = [Field?](repeating: nil, count: Element.allCases.count * 2)
        for (element, context, target, precedence) in rows {
            table[element.rawValue * 2 + (context == .feed ? 0 : 1)] = Field(target: target, precedence: precedence)
        }
        return table
    }()

    /// Whether `element` is a part of an author or contributor, read from text.
    static func isPersonPart(_ element: Element) -> Bool {
        element == .name || element == .email || element == .uri || element == .url
    }
}
