import CourierXML
import Foundation

/// Builds a ``Feed`` from tokenizer events: resolves namespaces, `xml:base` and `xml:lang`,
/// and applies ``FeedRules`` (which element is which, what a field sets, which occurrence
/// wins) as elements open and close.
struct FeedBuilder {
    /// One open element.
    struct Open {
        var element: FeedRules.Element
        var namespace: FeedNamespace
        var version: FeedNamespace.Version?
        var base: URL?
        var language: String?
        /// How many namespace prefixes this element declares (`xmlns`, `xmlns:p`): the last of
        /// ``FeedBuilder/declaredPrefixes``, undone at its end.
        var declaredCount: Int
    }

    /// An element name and what it resolved to.
    struct RecentName {
        var qualified: String
        var version: FeedNamespace.Version?
        var namespace: FeedNamespace
        var local: String
        var element: FeedRules.Element
    }

    /// A field whose text is being collected.
    struct Capture {
        var element: FeedRules.Element
        var depth: Int
        var text: [UInt8] = []
        var attributes: [XMLToken.Attribute]
        var base: URL?
        var isAtom: Bool
        /// XHTML content: its elements are kept as markup, its text escaped.
        var isMarkup = false

        /// Appends `bytes` escaped for HTML.
        mutating func appendEscaped(_ bytes: some Sequence<UInt8>) {
            FeedHTML.appendEscaped(bytes, to: &text)
        }

    }

    /// An alternate-link candidate per feedparser's rules.
    struct LinkChoice {
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

    /// What an entry collects besides its fields.
    struct EntryState {
        var entry = Entry()
        var depth: Int
        var link = LinkChoice()
        var permalink: String?
        /// The targets set so far, for ``FeedRules/Precedence/first``.
        var setTargets: Set<FeedRules.Target> = []
        var mediaTitle: String?
    }

    var feed = Feed()
    /// The first thing found not well-formed (only the first is kept: a million undeclared
    /// prefixes are one problem).
    var problem: String?
    /// The first root element's local name, in lowercase, and whether a feed's element (a
    /// feed, channel, entry or item) was seen anywhere.
    var firstRoot: String?
    var sawFeedElement = false

    /// Set when the document ended with no feed in it: an HTML page, another XML document.
    /// (A stray element after a feed, or before it, is not well-formed but does not refuse it.)
    var refusal: FeedError? {
        guard !sawFeedElement, let firstRoot else { return nil }
        if firstRoot == "html" { return .notAFeed("an HTML page") }
        return .notAFeed("an XML document whose root element is <\(firstRoot)>")
    }

    /// The feed's own fields so far: its link is known before the root element closes.
    var feedSoFar: Feed {
        var feed = self.feed
        if feed.link == nil { feed.link = feedLink.link ?? feedID }
        return feed
    }

    /// Feed-level authors kept at most: a feed repeating `<dc:creator>` does not grow memory.
    static let maximumFeedAuthors = 100
    /// Whether finished entries go into ``feed`` (a whole parse) or ``pendingEntries`` (a stream).
    var retainsEntries = true
    /// Finished entries not yet taken, when streaming.
    var pendingEntries: [Entry] = []

    let documentBase: URL?
    var stack: [Open] = []
    /// Each namespace prefix's URIs and namespaces, innermost declaration last: elements push
    /// what they declare and pop it at their end, so no element copies the whole table.
    var namespaces: [String: [(uri: String, namespace: FeedNamespace)]] = [
        "xml": [("http://www.w3.org/xml/1998/namespace", .xml)]
    ]
    /// Names resolved lately: feeds repeat a few element names, so most lookups end here.
    /// Emptied when a namespace is declared or undone.
    var recentNames: [RecentName] = []
    /// The prefixes the open elements declare, innermost last.
    var declaredPrefixes: [String] = []
    var capture: Capture?
    var entry: EntryState?
    var feedLink = LinkChoice()
    /// The feed's targets set so far, for ``FeedRules/Precedence/first``.
    var feedSetTargets: Set<FeedRules.Target> = []
    var feedID: String?
    var person: Person?
    var personText: [UInt8] = []
    var personDepth = 0
    /// The depth of the channel's RSS `<image>`, while it is open: its `<url>` is the feed's image.
    var feedImageDepth: Int?
    /// The names of the elements open inside XHTML content, to close them as markup.
    var markupNames: [String] = []
    /// Whether the field being captured is XHTML content: asked for every piece of text and
    /// element, so kept apart (reading it through `capture?` copies the capture each time).
    var capturesMarkup = false

    init(documentBase: URL?) {
        self.documentBase = documentBase
    }

    // MARK: - Events

    mutating func handle(_ event: XMLToken) {
        switch event {
        case .start(let name, let attributes, _): start(name, attributes)
        case .end: end()
        case .text(let text), .cdata(let text):
            if capturesMarkup {
                capture?.appendEscaped(text)
            } else if capture != nil {
                capture?.text.append(contentsOf: text)
            } else if person != nil {
                personText.append(contentsOf: text)
            }
        case .comment, .instruction: break
        }
    }

    /// Ends the document: entries still open are kept.
    mutating func finish() -> Feed {
        while !stack.isEmpty { end() }
        return feed
    }

    // MARK: - Elements

    private mutating func start(_ qualifiedName: String, _ attributes: [XMLToken.Attribute]) {
        var declaredCount = 0
        for attribute in attributes where attribute.name.utf8.starts(with: "xmlns".utf8) {
            let prefix: String
            if attribute.name == "xmlns" {
                prefix = ""
            } else if attribute.name.utf8.starts(with: "xmlns:".utf8) {
                prefix = String(attribute.name.dropFirst(6))
            } else {
                continue
            }
            namespaces[prefix, default: []].append((attribute.value.lowercased(), FeedNamespace(uri: attribute.value)))
            declaredPrefixes.append(prefix)
            declaredCount += 1
        }
        // An attribute's prefix must be declared too (`xml` always is).
        if problem == nil {
            for attribute in attributes {
                guard let colon = attribute.name.utf8.firstIndex(of: UInt8(ascii: ":")) else { continue }
                let prefix = String(Substring(attribute.name.utf8[..<colon]))
                if prefix != "xmlns", namespaces[prefix]?.last == nil {
                    problem = "the prefix \(prefix) is not declared"
                }
            }
        }
        if declaredCount > 0 { recentNames.removeAll() }
        let name = lookUp(qualifiedName)
        let (namespace, local, element) = (name.namespace, name.local, name.element)
        let parentElement = stack.last?.element
        let parentBase = stack.last?.base ?? documentBase
        var base = parentBase
        // CDF gives its channel's base as a plain BASE attribute.
        if let xmlBase = value("xml:base", in: attributes)
            ?? (element == .channel ? value("base", in: attributes) : nil),
            xmlBase.utf8.count <= FeedHTML.maximumURLLength
        {
            // Nested bases add up: one that resolves longer than a URL kept is not taken.
            base =
                Self.resolve(xmlBase, against: parentBase)
                .flatMap { $0.utf8.count <= FeedHTML.maximumURLLength ? URL(string: $0) : nil } ?? parentBase
        }
        let language = value("xml:lang", in: attributes) ?? stack.last?.language
        let open = Open(
            element: element,
            namespace: namespace,
            version: name.version,
            base: base,
            language: language,
            declaredCount: declaredCount
        )
        stack.append(open)

        // Inside a field every element is part of its text (stray markup), or of its markup
        // (XHTML content).
        if capturesMarkup {
            markupNames.append(local)
            capture?.text.append(UInt8(ascii: "<"))
            capture?.text.append(contentsOf: local.utf8)
            for attribute in attributes where !attribute.name.utf8.starts(with: "xmlns".utf8) {
                capture?.text.append(UInt8(ascii: " "))
                capture?.text.append(contentsOf: attribute.name.utf8)
                capture?.text.append(contentsOf: "=\"".utf8)
                capture?.appendEscaped(attribute.value.utf8)
                capture?.text.append(UInt8(ascii: "\""))
            }
            capture?.text.append(UInt8(ascii: ">"))
        }
        if capture != nil { return }
        switch element {
        case .feed, .rss, .rdf, .channel, .entry, .item: sawFeedElement = true
        default: break
        }
        if stack.count == 1, firstRoot == nil {
            firstRoot = String(local.lowercased().prefix(64))
            startRoot(open, attributes)
        }
        if element == .channel, feed.version == nil || feed.version == "rss" { detectRSS10(open) }
        started(open, attributes, parent: parentElement)
    }

    /// What an element name resolves to, from the recent names or resolved now.
    private mutating func lookUp(_ qualifiedName: String) -> RecentName {
        if let recent = recentNames.first(where: { $0.qualified == qualifiedName }) { return recent }
        let (uri, namespace, local) = resolve(qualifiedName)
        let element = FeedRules.elements[FeedRules.Name(namespace: namespace, local: local)] ?? .other
        let name = RecentName(
            qualified: qualifiedName,
            version: FeedNamespace.Version(rawValue: uri),
            namespace: namespace,
            local: local,
            element: element
        )
        if recentNames.count == 16 { recentNames.removeLast() }
        recentNames.insert(name, at: 0)
        return name
    }

    /// Applies the rules to an element that opened outside any field.
    private mutating func started(_ open: Open, _ attributes: [XMLToken.Attribute], parent: FeedRules.Element?) {
        let depth = stack.count
        if open.element == .entry || open.element == .item, entry == nil {
            var state = EntryState(depth: depth)
            if let about = value("rdf:about", in: attributes) {
                state.entry.id = Self.resolve(about, against: open.base)
            }
            // CDF items carry their link and date as attributes.
            if let href = value("href", in: attributes) { state.link.link = Self.resolve(href, against: open.base) }
            if let date = value("lastmod", in: attributes).flatMap(FeedDate.parse) { state.entry.updated = date }
            entry = state
            return
        }
        if open.element == .channel, depth == 1 {
            if let href = value("href", in: attributes) { feedLink.link = Self.resolve(href, against: open.base) }
            if let date = value("lastmod", in: attributes).flatMap(FeedDate.parse) { feed.updated = date }
        }
        if person != nil, depth == personDepth + 1 {
            if FeedRules.isPersonPart(open.element) { beginCapture(open, attributes) }
            return
        }
        if open.element == .url, let imageDepth = feedImageDepth, depth == imageDepth + 1 {
            return beginCapture(open, attributes)
        }
        // Media RSS: anywhere in an entry (in a `media:group` too).
        if open.element == .mediaThumbnail || open.element == .mediaContent, entry != nil {
            if let item = Self.mediaItem(open, attributes) { entry?.entry.media.append(item) }
            return
        }
        // Fields count only as direct children of the entry, or of the feed or channel: a
        // <title> inside <image>, <source> or <textinput> is not the entry's title.
        let context: FeedRules.Context
        // The entry's depth only: binding the entry would copy it, every field of it.
        if let entryDepth = entry?.depth {
            guard depth == entryDepth + 1 else { return }
            context = .entry
        } else {
            // RSS 1.0 puts its `<image>` beside the channel, in `rdf:RDF`.
            guard parent == .feed || parent == .channel || (parent == .rdf && open.element == .image) else { return }
            context = .feed
        }
        switch open.element {
        case .link where value("href", in: attributes) != nil:
            guard let href = value("href", in: attributes), let resolved = Self.resolve(href, against: open.base) else {
                return
            }
            let (rel, type) = (value("rel", in: attributes), value("type", in: attributes))
            guard context == .entry else { return feedLink.offer(rel: rel, type: type, href: resolved) }
            entry?.link.offer(rel: rel, type: type, href: resolved)
            if rel?.lowercased() == "enclosure" {
                entry?.entry.enclosures.append(Self.enclosure(resolved, attributes))
            }
        case .enclosure:
            if context == .entry, let url = value("url", in: attributes),
                let resolved = Self.resolve(url, against: open.base)
            {
                entry?.entry.enclosures.append(Self.enclosure(resolved, attributes))
            }
        case .author, .contributor:
            person = Person()
            personText = []
            personDepth = depth
        case .category where value("term", in: attributes) != nil:
            if context == .entry, let term = value("term", in: attributes) { entry?.entry.categories.append(term) }
        case .image where context == .feed:
            feedImageDepth = depth
        case .itunesImage:
            // `href` (or `url`, which some feeds write); an empty one keeps the picture there is.
            guard let href = value("href", in: attributes) ?? value("url", in: attributes),
                let resolved = Self.resolvePicture(href, against: open.base)
            else { return }
            if context == .entry { entry?.entry.image = resolved } else { feed.image = resolved }
        default:
            if FeedRules.field(open.element, in: context) != nil { beginCapture(open, attributes) }
        }
    }

    /// A `media:thumbnail` or `media:content` with a URL.
    private static func mediaItem(_ open: Open, _ attributes: [XMLToken.Attribute]) -> MediaItem? {
        guard let url = value("url", in: attributes), let resolved = resolvePicture(url, against: open.base) else {
            return nil
        }
        let number = { (name: String) in value(name, in: attributes).flatMap { FeedValues.wholeNumber($0) } }
        return MediaItem(
            kind: open.element == .mediaThumbnail ? .thumbnail : .content,
            url: resolved,
            type: value("type", in: attributes),
            medium: value("medium", in: attributes),
            width: number("width"),
            height: number("height"),
            duration: number("duration"),
            fileSize: value("filesize", in: attributes).flatMap { FeedValues.wholeNumber($0, maximumDigits: 18) }
        )
    }

    private static func enclosure(_ url: String, _ attributes: [XMLToken.Attribute]) -> Enclosure {
        Enclosure(
            url: url,
            type: value("type", in: attributes),
            length: value("length", in: attributes).flatMap { Int($0) }
        )
    }

    private mutating func beginCapture(_ open: Open, _ attributes: [XMLToken.Attribute]) {
        let type = open.element == .content ? value("type", in: attributes)?.lowercased() : nil
        capture = Capture(
            element: open.element,
            depth: stack.count,
            attributes: attributes,
            base: open.base,
            isAtom: open.version == .atom10 || open.version == .atom03,
            isMarkup: type == "xhtml" || type == "application/xhtml+xml"
        )
        capturesMarkup = capture?.isMarkup == true
        markupNames.removeAll(keepingCapacity: true)
    }

    private mutating func end() {
        guard let open = stack.popLast() else { return }
        if let imageDepth = feedImageDepth, stack.count < imageDepth { feedImageDepth = nil }
        if open.declaredCount > 0 {
            for prefix in declaredPrefixes.suffix(open.declaredCount) {
                namespaces[prefix]?.removeLast()
                if namespaces[prefix]?.isEmpty == true { namespaces[prefix] = nil }
            }
            declaredPrefixes.removeLast(open.declaredCount)
            recentNames.removeAll()
        }
        if let current = capture {
            guard current.depth == stack.count + 1 else {
                if current.isMarkup, let name = markupNames.popLast() {
                    capture?.text.append(contentsOf: "</".utf8)
                    capture?.text.append(contentsOf: name.utf8)
                    capture?.text.append(UInt8(ascii: ">"))
                }
                return
            }
            capture = nil
            capturesMarkup = false
            finishCapture(current)
            return
        }
        let depth = stack.count + 1
        if open.element == .entry || open.element == .item, let state = entry, depth == state.depth {
            var finished = state.entry
            finished.link = state.link.link ?? state.permalink
            if !state.setTargets.contains(.title) { finished.title = state.mediaTitle }
            if retainsEntries { feed.entries.append(finished) } else { pendingEntries.append(finished) }
            entry = nil
        } else if open.element == .author || open.element == .contributor, person != nil, depth == personDepth {
            finishPerson()
        }
        if stack.isEmpty { feed.link = feedLink.link ?? feedID }
    }

    /// An author or contributor: Atom names its parts; RSS writes "me@example.com (Me)" as
    /// the element's text.
    private mutating func finishPerson() {
        guard var finished = person else { return }
        if finished == Person() {
            let text = FeedText.collapsingWhitespace(String(decoding: personText, as: UTF8.self))
            if !text.isEmpty { finished.name = text }
        }
        if finished != Person() {
            if entry != nil {
                entry?.entry.authors.append(finished)
            } else if feed.authors.count < Self.maximumFeedAuthors {
                feed.authors.append(finished)
            }
        }
        person = nil
        personDepth = 0
    }

    // MARK: - Versions

    private mutating func startRoot(_ open: Open, _ attributes: [XMLToken.Attribute]) {
        switch open.element {
        case .feed:
            let version = value("version", in: attributes)
            if open.version == .atom10 {
                feed.version = "atom10"
            } else if let version, ["0.1", "0.2", "0.3"].contains(version) {
                feed.version = "atom0" + String(version.last ?? "3")
            } else {
                feed.version = "atom"
            }
        case .rss:
            let version = value("version", in: attributes) ?? ""
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
        case .rdf, .channel:
            feed.version = "rss"
        default:
            break
        }
        if let language = open.language, feed.language == nil { feed.language = language }
    }

    private mutating func detectRSS10(_ open: Open) {
        if open.version == .rss10 {
            feed.version = "rss10"
        } else if open.version == .rss090 {
            feed.version = "rss090"
        }
    }
}
