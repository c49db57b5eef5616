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
        var prefixes: [String: String]
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
    private(set) var problems: [String] = []
    private let documentBase: URL?
    private var stack: [Element] = []
    private var capture: Capture?
    private var entry: Entry?
    private var entryLink = LinkChoice()
    private var entryPermalink: String?
    private var entryTitleSet = false
    private var feedLink = LinkChoice()
    private var feedTitleSet = false
    private var person: Person?
    private var personText = ""
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
        var prefixes = stack.last?.prefixes ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
        var attributes: [String: String] = [:]
        for attribute in rawAttributes {
            if attribute.name == "xmlns" {
                prefixes[""] = attribute.value
            } else if attribute.name.hasPrefix("xmlns:") {
                prefixes[String(attribute.name.dropFirst(6))] = attribute.value
            }
        }
        for attribute in rawAttributes where !attribute.name.hasPrefix("xmlns") {
            attributes[qualifiedKey(attribute.name, prefixes: prefixes)] = attribute.value
        }
        let (uri, local) = resolve(qualifiedName, prefixes: prefixes, isElement: true)
        let namespace = FeedNamespace(uri: uri)
        let parentBase = stack.last?.base ?? documentBase
        var base = parentBase
        if let xmlBase = attributes["xml:base"] {
            base = Self.resolve(xmlBase, against: parentBase).flatMap(URL.init(string:)) ?? parentBase
        }
        let language = attributes["xml:lang"] ?? stack.last?.language
        let key: String =
            switch namespace {
            case .core: local
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
            prefixes: prefixes,
            attributes: attributes
        )
        stack.append(element)

        // Inside a field every element is part of its text (XHTML content, stray markup).
        if capture != nil { return }
        if stack.count == 1 { startRoot(element) }
        if key == "channel", feed.version == nil || feed.version == "rss" { detectRSS10(element) }

        let inEntry = entry != nil
        switch key {
        case "entry", "item":
            guard !inEntry else { break }
            entry = Entry()
            entryLink = LinkChoice()
            entryPermalink = nil
            entryTitleSet = false
            if let about = attributes["rdf:about"] { entry?.id = Self.resolve(about, against: base) }
        case "link" where attributes["href"] != nil || attributes["rel"] != nil:
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
            } else if stack.count <= 3 {
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
        case "category" where attributes["term"] != nil:
            if inEntry, let term = attributes["term"] { entry?.categories.append(term) }
        default:
            if Self.capturedKeys.contains(key) || (person != nil && ["name", "email", "uri", "url"].contains(key)) {
                beginCapture(key, element)
            }
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
        if let current = capture {
            guard current.depth == stack.count + 1 else { return }
            capture = nil
            finishCapture(current, element)
            return
        }
        switch element.key {
        case "entry", "item":
            guard var finished = entry else { return }
            finished.link = entryLink.link ?? entryPermalink
            feed.entries.append(finished)
            entry = nil
        case "author", "contributor":
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
        default:
            break
        }
        if stack.isEmpty {
            feed.link = feed.link ?? feedLink.link
        }
    }

    // MARK: - Fields

    /// Elements whose text is collected.
    private static let capturedKeys: Set<String> = [
        "title", "dc:title", "subtitle", "tagline", "description", "itunes:subtitle", "updated", "modified",
        "lastBuildDate", "dc:date", "dcterms:modified", "published", "pubDate", "issued", "dcterms:issued",
        "id", "guid", "link", "summary", "content", "content:encoded", "language", "dc:language", "dc:creator",
        "itunes:author", "category", "dc:subject", "itunes:summary",
    ]

    private mutating func finishCapture(_ capture: Capture, _ element: Element) {
        let raw = capture.text
        let inEntry = entry != nil
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
        case "title", "dc:title":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if inEntry {
                if !entryTitleSet { entry?.title = value }
                entryTitleSet = true
            } else if stack.count <= 2 {
                if !feedTitleSet { feed.title = value }
                feedTitleSet = true
            }
        case "subtitle", "tagline", "itunes:subtitle":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if !inEntry { feed.subtitle = value }
        case "description":
            let value = text(capture, isAtom: false)
            if inEntry { entry?.summary = value } else if stack.count <= 2 { feed.subtitle = value }
        case "summary", "itunes:summary":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if inEntry { entry?.summary = value }
        case "content", "content:encoded":
            let value = text(capture, isAtom: Self.isAtom(element.namespaceURI))
            if inEntry {
                entry?.content = Self.decodedIfBase64(raw, type: capture.type, mode: capture.mode)
                if entry?.summary == nil { entry?.summary = value }
            }
        case "updated", "modified", "lastBuildDate", "dc:date", "dcterms:modified":
            if let date = FeedDate.parse(raw) {
                if inEntry {
                    if capture.key != "lastBuildDate" { entry?.updated = date }
                } else {
                    feed.updated = date
                }
            }
        case "published", "pubDate", "issued", "dcterms:issued":
            if inEntry, let date = FeedDate.parse(raw) { entry?.published = date }
        case "id", "guid":
            guard inEntry else { break }
            let value = raw.trimmingXMLSpace()
            guard !value.isEmpty else { break }
            let isPermaLink = capture.key != "guid" || capture.attributes["isPermaLink"]?.lowercased() != "false"
            let id = isPermaLink ? Self.resolve(value, against: capture.base) ?? value : value
            entry?.id = id
            if isPermaLink { entryPermalink = id }
        case "link":
            let value = raw.trimmingXMLSpace()
            guard !value.isEmpty, let resolved = Self.resolve(value, against: capture.base) else { break }
            if inEntry { entryLink.link = resolved } else if stack.count <= 2 { feed.link = resolved }
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
        default:
            if capture.mode?.lowercased() == "escaped" || FeedText.looksLikeHTML(raw) {
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
            break
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
    private mutating func resolve(
        _ qualifiedName: String,
        prefixes: [String: String],
        isElement: Bool
    ) -> (String, String) {
        guard let colon = qualifiedName.firstIndex(of: ":") else {
            return (isElement ? prefixes[""] ?? "" : "", qualifiedName)
        }
        let prefix = String(qualifiedName[..<colon])
        let local = String(qualifiedName[qualifiedName.index(after: colon)...])
        if let uri = prefixes[prefix] { return (uri, local) }
        problems.append("the prefix \(prefix) is not declared")
        return (FeedNamespace.wellKnownPrefixes[prefix.lowercased()] ?? "", local)
    }

    /// An attribute's key: its local name, or `prefix:local` with the namespace's usual prefix
    /// (`xml:base`, `rdf:about`).
    private mutating func qualifiedKey(_ name: String, prefixes: [String: String]) -> String {
        guard name.contains(":") else { return name }
        let (uri, local) = resolve(name, prefixes: prefixes, isElement: false)
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
        if let url = URL(string: trimmed, relativeTo: base) { return url.absoluteString }
        let escaped =
            trimmed.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"])) ?? trimmed
        return URL(string: escaped, relativeTo: base)?.absoluteString ?? trimmed
    }
}
