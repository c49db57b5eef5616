/// The namespaces feeds use, by URI (compared lowercased): what an element belongs to, whatever
/// prefix the document gives it.
enum FeedNamespace: String, Sendable {
    /// RSS 0.9x/2.0 (no namespace), RSS 1.0, RSS 0.90 and the Userland variants, and Atom 1.0 and
    /// 0.3: their elements are read by local name.
    case core
    case rdf
    case dc
    case dcterms
    case content
    case itunes
    case media
    case xhtml
    case xml
    case other

    /// The core namespaces that tell a format's version apart, by URI (lowercased).
    enum Version: String {
        case atom10 = "http://www.w3.org/2005/atom"
        case atom03 = "http://purl.org/atom/ns#"
        case rss10 = "http://purl.org/rss/1.0/"
        case rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    }

    /// Atom 1.0.
    static let atom10 = Version.atom10.rawValue
    /// Atom 0.3 (and 0.2, 0.1).
    static let atom03 = Version.atom03.rawValue
    /// RSS 1.0.
    static let rss10 = Version.rss10.rawValue
    /// RSS 0.90.
    static let rss090 = Version.rss090.rawValue

    private static let byURI: [String: FeedNamespace] = [
        "": .core, atom10: .core, atom03: .core, rss10: .core, rss090: .core,
        "http://backend.userland.com/rss2": .core, "http://backend.userland.com/rss": .core,
        "http://blogs.law.harvard.edu/tech/rss": .core, "http://purl.org/net/rss1.1#": .core,
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": .rdf,
        "http://purl.org/dc/elements/1.1/": .dc, "http://purl.org/dc/elements/1.0/": .dc,
        "http://purl.org/dc/terms/": .dcterms,
        "http://purl.org/rss/1.0/modules/content/": .content,
        "http://www.itunes.com/dtds/podcast-1.0.dtd": .itunes, "http://example.com/dtds/podcast-1.0.dtd": .itunes,
        "http://search.yahoo.com/mrss/": .media, "http://search.yahoo.com/mrss": .media,
        "http://www.w3.org/1999/xhtml": .xhtml,
        "http://www.w3.org/xml/1998/namespace": .xml,
    ]

    /// The namespace of `uri`.
    init(uri: String) {
        self = Self.byURI[uri.lowercased()] ?? .other
    }

    /// Prefixes feeds use without declaring them, and the namespaces they mean.
    static let wellKnownPrefixes: [String: String] = [
        "dc": "http://purl.org/dc/elements/1.1/", "dcterms": "http://purl.org/dc/terms/",
        "content": "http://purl.org/rss/1.0/modules/content/", "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
        "media": "http://search.yahoo.com/mrss/", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "atom": atom10, "xhtml": "http://www.w3.org/1999/xhtml", "xml": "http://www.w3.org/XML/1998/namespace",
    ]
}
