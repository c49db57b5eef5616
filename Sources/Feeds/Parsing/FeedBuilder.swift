import Foundation

/// Builds a ``Feed`` from tokenizer events: resolves namespaces, `xml:base` and `xml:lang`,
/// and maps the elements of every format onto the one model, with feedparser's precedence
/// rules (the first title wins, the last subtitle and alternate link win, and so on).
struct FeedBuilder {
    /// One open element.
    private struct Element {
        var namespace: FeedNamespace
        var namespaceURI: String
        var local: String
        var key: String
        var base: URL?
        var language: String?
        /// The namespace prefixes this element declares (`xmlns`, `xmlns:p`), undone at its end.
        var declaredPrefixes: [String]
        var attributes: [String: String]
    }

    /// A text field being collected.
    private struct Capture {
        var key: String
        var depth: Int
        var text = ""
        var type: String?
        var mode: String?
        var attributes: [String: String]
        var base: URL?
    }

    /// An alternate-link candidate per feedparser's rules.
    private struct LinkChoice {
        var link: String?
        mutating func offer(rel: String?, type: String?, href: String) {
            let rel = (rel ?? "alternate").lowercased()
            let type = type?.lowercased()
            guard rel == "alternate" else { return }
            guard type == nil || type == "text/html" || type == "application/xhtml+xml" || type?.isEmpty == true else {
                return
            }
            link = href
        }
    }

    private(set) var feed = Feed()
    /// The first thing found not well-formed (only the first is kept: a million undeclared
    /// prefixes are one problem).
    private(set) var problem: String?
    /// Set when the root element shows the document is not a feed.
    private(set) var refusal: FeedError?
    /// Whether finished entries go into ``feed`` (a whole parse) or ``pendingEntries`` (a stream).
    var retainsEntries = true
    /// Finished entries not yet taken, when streaming.
    var pendingEntries: [Entry] = []
    private let documentBase: URL?
    private var stack: [Element] = []
    /// Each namespace prefix's URIs, innermost declaration last: elements push what they
    /// declare and pop it at their end, so no element copies the whole table (a root declaring
    /// a million prefixes made every later declaration copy them all).
    private var namespaces: [String: [String]] = ["xml": ["http://www.w3.org/XML/1998/namespace"]]
    private var capture: Capture?
    private var entry: Entry?
    private var entryLink = LinkChoice()
    private var entryPermalink: String?
    private var entryTitleSet = false
    private var feedLink = LinkChoice()
    private var feedTitleSet = false
    private var person: Person?
    private var personText = ""
    /// The depth of the open entry element, and of the author element being read.
    private var entryDepth = 0
    private var personDepth = 0
    private var feedID: String?
    private var entryMediaTitle: String?
    private var rssVersion: String?

    init(documentBase: URL?) {
        self.documentBase = documentBase
    }

    // MARK: - Events

    mutating func handle(_ event: XMLEvent) {
        switch event {
        case .start(let name, let attributes, _): start(name, attributes)
        case .end: end()
        case .text(let text), .cdata(let text):
            if capture != nil {
                capture?.text += text
            } else if person != nil {
                personText += text
            }
        }
    }

    /// Ends the document: entries still open are kept.
    mutating func finish() -> Feed {
        while !stack.isEmpty { end() }
        return feed
    }

    // MARK: - Elements

    private mutating func start(_ qualifiedName: String, _ rawAttributes: [XMLAttribute]) {
        var declaredPrefixes: [String] = []
        var attributes: [String: String] = [:]
        for attribute in rawAttributes {
            let prefix: String
            if attribute.name == "xmlns" {
                prefix = ""
            } else if attribute.name.hasPrefix("xmlns:") {
                prefix = String(attribute.name.dropFirst(6))
            } else {
                continue
            }
            namespaces[prefix, default: []].append(attribute.value)
            declaredPrefixes.append(prefix)
        }
        for attribute in rawAttributes where !attribute.name.hasPrefix("xmlns") {
            let key =
                attribute.name.contains(":")
                ? qualifiedKey(attribute.name) : attribute.name.lowercased()
            if attributes[key] == nil { attributes[key] = attribute.value }
        }
        let (uri, local) = resolve(qualifiedName, isElement: true)
        var namespace = uri.isEmpty ? .core : FeedNamespace(uri: uri)
        // An unprefixed element in a namespace this does not know is read by its local name,
        // as feedparser does (feeds invent namespace URIs for RSS and Atom).
        if namespace == .other, !qualifiedName.utf8.contains(UInt8(ascii: ":")) { namespace = .core }
        let parentBase = stack.last?.base ?? documentBase
        var base = parentBase
        // CDF gives its channel's base as a plain BASE attribute.
        if let xmlBase = attributes["xml:base"] ?? (local.lowercased() == "channel" ? attributes["base"] : nil) {
            base = Self.resolve(xmlBase, against: parentBase).flatMap(URL.init(string:)) ?? parentBase
        }
        let language = attributes["xml:lang"] ?? stack.last?.language
        let key: String =
            switch namespace {
            case .core: local.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? local.lowercased() : local
            case .other: "?:" + local
            default: namespace.rawValue + ":" + local
            }
        let element = Element(
            namespace: namespace,
            namespaceURI: uri.lowercased(),
            local: local,
            key: key,
            base: base,
            language: language,
            declaredPrefixes: declaredPrefixes,
            attributes: attributes
        )
        stack.append(element)

        // Inside a field every element is part of its text (XHTML content, stray markup).
        if capture != nil { return }
        if stack.count == 1 { startRoot(element) }
        if key == "channel", feed.version == nil || feed.version == "rss" { detectRSS10(element) }

        let parentKey = stack.count >= 2 ? stack[stack.count - 2].key : nil
        let inEntry = entryDepth > 0
        // Fields count only as direct children of the entry, the feed or channel, or an author:
        // a <title> inside <image>, <source> or <textinput> is not the entry's title.
        let isEntryField = inEntry && stack.count == entryDepth + 1
        let isFeedField = !inEntry && (parentKey == "feed" || parentKey == "channel")
        let isPersonField = person != nil && stack.count == personDepth + 1

        if ["entry", "item"].contains(key), !inEntry {
            entry = Entry()
            entryDepth = stack.count
            entryLink = LinkChoice()
            entryPermalink = nil
            entryTitleSet = false
            if let about = attributes["rdf:about"] { entry?.id = Self.resolve(about, against: base) }
            // CDF items carry their link and date as attributes.
            if let href = attributes["href"] { entryLink.link = Self.resolve(href, against: base) }
            if let date = attributes["lastmod"].flatMap(FeedDate.parse) { entry?.updated = date }
            return
        }
        if key == "channel", stack.count == 1 {
            if let href = attributes["href"] { feedLink.link = Self.resolve(href, against: base) }
            if let date = attributes["lastmod"].flatMap(FeedDate.parse) { feed.updated = date }
        }
        if isPersonField {
            if ["name", "email", "uri", "url"].contains(key) { beginCapture(key, element) }
            return
        }
        guard isEntryField || isFeedField else { return }

        switch key {
        case "link" where attributes["href"] != nil:
            guard let href = attributes["href"], let resolved = Self.resolve(href, against: base) else { break }
            if inEntry {
                entryLink.offer(rel: attributes["rel"], type: attributes["type"], href: resolved)
                if attributes["rel"]?.lowercased() == "enclosure" {
                    entry?.enclosures.append(
                        Enclosure(
                            url: resolved,
                            type: attributes["type"],
                            length: attributes["length"].flatMap { Int($0) }
                        )
                    )
                }
            } else {
                feedLink.offer(rel: attributes["rel"], type: attributes["type"], href: resolved)
            }
        case "enclosure":
            if inEntry, let url = attributes["url"], let resolved = Self.resolve(url, against: base) {
                entry?.enclosures.append(
                    Enclosure(url: resolved, type: attributes["type"], length: attributes["length"].flatMap { Int($0) })
                )
            }
        case "author", "contributor":
            person = Person()
            personText = ""
            personDepth = stack.count
        case "category" where attributes["term"] != nil:
            if inEntry, let term = attributes["term"] { entry?.categories.append(term) }
        default:
            if Self.capturedKeys.contains(key) { beginCapture(key, element) }
        }
    }

    private mutating func beginCapture(_ key: String, _ element: Element) {
        capture = Capture(
            key: key,
            depth: stack.count,
            type: element.attributes["type"],
            mode: element.attributes["mode"],
            attributes: element.attributes,
            base: element.base
        )
    }

    private mutating func end() {
        guard let element = stack.popLast() else { return }
        for prefix in element.declaredPrefixes { namespaces[prefix]?.removeLast() }
        if let current = capture {
            guard current.depth == stack.count + 1 else { return }
            capture = nil
            finishCapture(current, element)
            return
        }
        switch element.key {
        case let key where (key == "entry" || key == "item") && stack.count + 1 == entryDepth:
            guard var finished = entry.take() else { return }
            finished.link = entryLink.link ?? entryPermalink
            if !entryTitleSet { finished.title = entryMediaTitle }
            entryMediaTitle = nil
            if retainsEntries { feed.entries.append(finished) } else { pendingEntries.append(finished) }
            entry = nil
            entryDepth = 0
        case let key where (key == "author" || key == "contributor") && stack.count + 1 == personDepth:
            // Atom names its parts; RSS writes "me@example.com (Me)" as the element's text.
            if var person {
                if person == Person() {
                    let text = FeedText.collapsingWhitespace(personText)
                    if !text.isEmpty { person.name = text }
                }
                if person != Person() {
                    if entry != nil { entry?.authors.append(person) } else { feed.authors.append(person) }
                }
            }
            person = nil
            personDepth = 0
        default:
            break
        }
        if stack.isEmpty {
            feed.link = feedLink.link ?? feedID
        }
    }

    // MARK: - Fields

    /// Elements whose text is collected (core names lowercased).
    private static let capturedKeys: Set<String> = [
        "title", "dc:title", "media:title", "subtitle", "tagline", "description", "abstract", "itunes:subtitle",
        "updated", "modified", "lastbuilddate", "dc:date", "dcterms:modified", "published", "pubdate", "issued",
        "dcterms:issued", "id", "guid", "link", "summary", "content", "content:encoded", "language", "dc:language",
        "dc:creator", "itunes:author", "category", "dc:subject", "itunes:summary",
    ]

    private mutating func finishCapture(_ capture: Capture, _ element: Element) {
        let raw = capture.text
        let inEntry = entryDepth > 0
        if person != nil, ["name", "email", "uri", "url"].contains(capture.key) {
            let value = FeedText.collapsingWhitespace(raw)
            switch capture.key {
            case "name": person?.name = value
            case "email": person?.email = value
            default: person?.uri = Self.resolve(value, against: capture.base)
            }
            return
        }
        switch capture.key {
        case "media:title":
            if inEntry, entryMediaTitle == nil { entryMediaTitle = text(capture, isAtom: false) }
        case "title", "dc:title":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if inEntry {
                if !entryTitleSet { entry?.title = value }
                entryTitleSet = true
            } else {
                if !feedTitleSet { feed.title = value }
                feedTitleSet = true
            }
        case "subtitle", "tagline", "itunes:subtitle":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if !inEntry { feed.subtitle = value }
        case "description", "abstract":
            let value = text(capture, isAtom: false)
            if inEntry { entry?.summary = value } else { feed.subtitle = value }
        case "summary", "itunes:summary":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if inEntry { entry?.summary = value }
        case "content", "content:encoded":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if inEntry {
                entry?.content = Self.decodedIfBase64(raw, type: capture.type, mode: capture.mode)
                if entry?.summary == nil { entry?.summary = value }
            }
        case "updated", "modified", "lastbuilddate", "dc:date", "dcterms:modified":
            if let date = FeedDate.parse(raw) {
                if inEntry {
                    if capture.key != "lastbuilddate" { entry?.updated = date }
                } else {
                    feed.updated = date
                }
            }
        case "published", "pubdate", "issued", "dcterms:issued":
            if inEntry, let date = FeedDate.parse(raw) { entry?.published = date }
        case "id", "guid":
            let value = raw.trimmingXMLSpace()
            guard !value.isEmpty else { break }
            let isPermaLink = capture.key != "guid" || capture.attributes["ispermalink"]?.lowercased() != "false"
            let id = isPermaLink ? Self.resolve(value, against: capture.base) : value
            guard inEntry else {
                feedID = id
                break
            }
            entry?.id = id
            if isPermaLink { entryPermalink = id }
        case "link":
            let value = raw.trimmingXMLSpace()
            guard !value.isEmpty, let resolved = Self.resolve(value, against: capture.base) else { break }
            // An Atom 0.3 link may give its URL as text; then rel and type still choose it.
            let isAtomStyle = capture.attributes["rel"] != nil || capture.attributes["type"] != nil
            if inEntry {
                if isAtomStyle {
                    entryLink.offer(rel: capture.attributes["rel"], type: capture.attributes["type"], href: resolved)
                } else {
                    entryLink.link = resolved
                }
            } else if isAtomStyle {
                feedLink.offer(rel: capture.attributes["rel"], type: capture.attributes["type"], href: resolved)
            } else {
                feedLink.link = resolved
            }
        case "language", "dc:language":
            if !inEntry { feed.language = raw.trimmingXMLSpace() }
        case "dc:creator", "itunes:author":
            let name = FeedText.collapsingWhitespace(raw)
            guard !name.isEmpty else { break }
            if inEntry { entry?.authors.append(Person(name: name)) } else { feed.authors.append(Person(name: name)) }
        case "category", "dc:subject":
            if inEntry { entry?.categories.append(FeedText.collapsingWhitespace(raw)) }
        default:
            break
        }
    }

    /// The plain text of a text construct: Atom's `type` decides (text, html, xhtml, or a media
    /// type); elsewhere the text is HTML when it looks like HTML.
    private func text(_ capture: Capture, isAtom: Bool) -> String? {
        let raw = Self.decodedIfBase64(capture.text, type: capture.type, mode: capture.mode)
        let type = capture.type?.lowercased()
        let value: String
        switch type {
        case "text", "text/plain":
            value = FeedText.collapsingWhitespace(raw)
        case "html", "text/html", "xhtml", "application/xhtml+xml":
            value = FeedText.plainText(fromHTML: raw)
        case _ where capture.mode?.lowercased() == "escaped":
            value = FeedText.plainText(fromHTML: raw)
        case _ where isAtom:
            // Atom text constructs are text unless their type says otherwise.
            value = FeedText.collapsingWhitespace(raw)
        default:
            if FeedText.looksLikeHTML(raw) {
                value = FeedText.plainText(fromHTML: raw)
            } else {
                value = FeedText.collapsingWhitespace(raw)
            }
        }
        return value.isEmpty ? nil : value
    }

    private static func decodedIfBase64(_ text: String, type: String?, mode: String?) -> String {
        let type = type?.lowercased() ?? ""
        let isBinaryType =
            !type.isEmpty && !type.hasPrefix("text") && !type.contains("xml") && !["html", "xhtml"].contains(type)
        guard mode?.lowercased() == "base64" || isBinaryType else { return text }
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), let decoded = String(data: data, encoding: .utf8) else {
            return text
        }
        return decoded
    }

    // MARK: - Versions

    private mutating func startRoot(_ element: Element) {
        switch element.key {
        case "feed":
            let version = element.attributes["version"]
            if element.namespaceURI == FeedNamespace.atom10 {
                feed.version = "atom10"
            } else if let version, ["0.1", "0.2", "0.3"].contains(version) {
                feed.version = "atom0" + String(version.last ?? "3")
            } else {
                feed.version = "atom"
            }
        case "rss":
            let version = element.attributes["version"] ?? ""
            rssVersion = version
            feed.version =
                switch version {
                case "2.0", "2": "rss20"
                case "0.91": "rss091u"
                case "0.92": "rss092"
                case "0.93": "rss093"
                case "0.94": "rss094"
                case "0.90": "rss090"
                default: "rss"
                }
        case "rdf:RDF":
            feed.version = "rss"
        case "channel":
            feed.version = "rss"
        default:
            // A feed's root in a namespace this does not know is still read; anything else is not a feed.
            switch element.local.lowercased() {
            case "feed", "rss", "rdf", "channel": break
            case "html": refusal = .notAFeed("an HTML page")
            default: refusal = .notAFeed("an XML document whose root element is <\(String(element.local.prefix(64)))>")
            }
        }
        if let language = element.language, feed.language == nil { feed.language = language }
    }

    private mutating func detectRSS10(_ element: Element) {
        if element.namespaceURI == FeedNamespace.rss10 {
            feed.version = "rss10"
        } else if element.namespaceURI == FeedNamespace.rss090 {
            feed.version = "rss090"
        }
    }

    // MARK: - Names and URLs

    private static func isAtom(_ uri: String) -> Bool {
        uri == FeedNamespace.atom10 || uri == FeedNamespace.atom03
    }

    /// The namespace URI and local name of `qualifiedName`; an undeclared prefix that feeds
    /// commonly use is taken to mean its usual namespace (not well-formed).
    private mutating func resolve(_ qualifiedName: String, isElement: Bool) -> (String, String) {
        guard let colon = qualifiedName.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            return (isElement ? namespaces[""]?.last ?? "" : "", qualifiedName)
        }
        let prefix = String(Substring(qualifiedName.utf8[..<colon]))
        let local = String(Substring(qualifiedName.utf8[qualifiedName.utf8.index(after: colon)...]))
        if let uri = namespaces[prefix]?.last { return (uri, local) }
        if problem == nil { problem = "the prefix \(prefix) is not declared" }
        return (FeedNamespace.wellKnownPrefixes[prefix.lowercased()] ?? "", local)
    }

    /// An attribute's key: its local name, or `prefix:local` with the namespace's usual prefix
    /// (`xml:base`, `rdf:about`).
    private mutating func qualifiedKey(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: ":")) else { return name }
        let (uri, local) = resolve(name, isElement: false)
        let namespace = FeedNamespace(uri: uri)
        switch namespace {
        case .xml: return "xml:" + local
        case .rdf: return "rdf:" + local
        case .core, .other: return name
        default: return namespace.rawValue + ":" + local
        }
    }

    /// `reference` made absolute against `base`; `nil` for an empty reference.
    static func resolve(_ reference: String, against base: URL?) -> String? {
        let trimmed = reference.trimmingXMLSpace()
        guard let base else { return trimmed.isEmpty ? nil : trimmed }
        guard !trimmed.isEmpty else { return base.absoluteString }
        // An absolute http(s) URL needs no resolving, and parsing one costs more than the rest.
        if trimmed.utf8.starts(with: "http://".utf8) || trimmed.utf8.starts(with: "https://".utf8),
            !trimmed.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\") })
        {
            return trimmed
        }
        if let url = URL(string: trimmed, relativeTo: base) { return url.absoluteString }
        // Spaces are common in feeds and harmless once escaped; anything else that does not
        // parse (a bracket in a host name) is not a link.
        let escaped = trimmed.replacingOccurrences(of: " ", with: "%20")
        return URL(string: escaped, relativeTo: base)?.absoluteString
    }
}
