import CourierXML
public import Foundation

/// HTML from a feed made safe to show: an entry's content, say, in a page.
///
/// ```swift
/// let html = FeedHTML.sanitized(#"<p onclick="x()">Hi <script>steal()</script><a href="/a">a</a></p>"#,
///                               base: URL(string: "https://example.com/blog/"))
/// // <p>Hi <a href="https://example.com/a" rel="noopener noreferrer nofollow">a</a></p>
/// ```
///
/// - **An allow-list.** Only elements of text, lists, tables, quotes, figures and pictures are
///   kept (``allowedElements``), with a few plain attributes (``allowedAttributes``); every
///   other tag is dropped and its text kept, except that the text of `script`, `style`,
///   `iframe`, `object`, `svg`, `template` and the like is dropped with it. No `style`,
///   `class`, `id`, event handler (`on…`) or form survives.
/// - **Links resolved and checked.** `href`, `src`, `cite` and `poster` are made absolute
///   against `base` after their references are decoded; only `http`, `https` and (for links)
///   `mailto` are kept, so `javascript:`, `data:` and `vbscript:` URLs are gone, however they
///   are spelled (`java&#x09;script:`, `JaVaScRiPt:`). Without a base, a relative URL is
///   dropped. Links get `rel="noopener noreferrer nofollow"`.
/// - **Well-formed output.** Text and attribute values are escaped; elements are closed in
///   order and all closed at the end; comments, declarations and processing instructions are
///   dropped. One pass over the input, nesting bounded (``maximumDepth``).
public enum FeedHTML {
    /// The elements kept.
    public static let allowedElements: Set<String> = [
        "a", "abbr", "acronym", "address", "article", "aside", "audio", "b", "bdi", "bdo", "big", "blockquote",
        "br", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl",
        "dt", "em", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i",
        "img", "ins", "kbd", "li", "mark", "ol", "p", "picture", "pre", "q", "s", "samp", "section", "small",
        "source", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
        "thead", "time", "tr", "tt", "u", "ul", "var", "video", "wbr",
    ]

    /// The attributes kept, on the elements kept.
    public static let allowedAttributes: Set<String> = [
        "abbr", "align", "alt", "cite", "colspan", "controls", "datetime", "dir", "headers", "height", "href",
        "lang", "open", "poster", "reversed", "rowspan", "scope", "span", "src", "start", "title", "type",
        "valign", "width",
    ]

    /// How deeply kept elements nest; deeper tags are dropped (their text kept).
    public static let maximumDepth = 256

    /// Elements whose text is dropped with them, up to their end tag (found as a browser finds
    /// the end of `script`: the next `</name`, whatever comes between).
    static let droppedWithText: Set<String> = [
        "applet", "button", "iframe", "math", "noembed", "noframes", "noscript", "object", "script", "select",
        "style", "svg", "template", "textarea", "title", "xmp",
    ]

    /// Elements that close an open `p`, as a browser's parser closes it.
    static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "figcaption", "figure", "footer",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "ol", "p", "pre", "section", "summary", "table", "ul",
    ]

    /// Where an open `p` is looked for, and past which it is not.
    static let paragraphScope: Set<String> = ["li", "dd", "dt", "td", "th", "blockquote", "figure", "details"]

    /// Elements with no end tag.
    static let voidElements: Set<String> = ["br", "col", "hr", "img", "source", "wbr"]

    /// Attributes that hold a URL.
    static let urlAttributes: Set<String> = ["href", "src", "cite", "poster"]

    /// The longest URL kept, in bytes: a longer one (a hostile `xml:base` repeated by every
    /// relative link) is dropped.
    public static let maximumURLLength = 8 << 10

    /// `html` with only the allowed elements and attributes, links absolute against `base`.
    ///
    /// - Parameters:
    ///   - html: HTML from a feed, in any state.
    ///   - base: What its relative links are relative to; without one, they are dropped.
    ///   - maximumLength: Where the output stops, in UTF-8 bytes (then the elements open are
    ///     closed): resolving relative links can make it longer than the input.
    /// - Returns: HTML safe to show.
    public static func sanitized(_ html: String, base: URL?, maximumLength: Int = 16 << 20) -> String {
        var sanitizer = Sanitizer(base: base, limit: maximumLength)
        sanitizer.run(Array(html.utf8))
        return String(decoding: sanitizer.output, as: UTF8.self)
    }

    /// `text` escaped for HTML (`&`, `<`, `>`, `"`).
    public static func escaped(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        appendEscaped(text.utf8, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `bytes` with `&`, `<`, `>` and `"` as references, and NUL dropped.
    static func appendEscaped(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case 0: break
            default: output.append(byte)
            }
        }
    }

    /// `url`'s absolute form when it is an address of the web a browser reads the same way
    /// wherever it is shown: `http` or `https` with a host and `scheme://` (`http:/path` has
    /// no host and would be read against the page showing it), no user
    /// (`https://trusted@evil.example/` only misleads), at most ``maximumURLLength`` bytes;
    /// or `mailto`, when `allowMail`.
    static func webAddress(_ url: URL, allowMail: Bool = false) -> String? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        let absolute = url.absoluteString
        guard absolute.utf8.count <= maximumURLLength else { return nil }
        if allowMail, scheme == "mailto" { return absolute }
        guard scheme == "http" || scheme == "https", url.host?.isEmpty == false, url.user == nil,
            absolute.lowercased().hasPrefix(scheme + "://")
        else { return nil }
        return absolute
    }

    /// One pass over the bytes: text escaped, tags checked, a stack of the elements kept.
    private struct Sanitizer {
        let base: URL?
        let limit: Int
        var output: [UInt8] = []
        var open: [String] = []
        /// The element whose text is being dropped, while inside one.
        var dropping: String?

        init(base: URL?, limit: Int) {
            // A base longer than any URL kept would make every relative link one to drop.
            self.base = base.flatMap { $0.absoluteString.utf8.count <= FeedHTML.maximumURLLength ? $0 : nil }
            self.limit = limit
        }

        mutating func run(_ bytes: [UInt8]) {
            output.reserveCapacity(min(bytes.count, limit))
            var index = 0
            var text = 0
            // Once a tag runs to the end of the input, no later `<` can end either: the rest
            // is text, and each byte is looked at a bounded number of times.
            var tagsPossible = true
            while index < bytes.count, output.count <= limit {
                if let dropped = dropping {
                    // Up to the element's end tag, whatever is between (`<` in a script too).
                    guard let end = Self.endTag(of: dropped, in: bytes, from: index) else {
                        index = bytes.count
                        text = index
                        break
                    }
                    dropping = nil
                    index = end
                    text = index
                    continue
                }
                // A `<` starts markup only before a letter, `/`, `!` or `?`, as browsers read it:
                // `a < b` is text.
                guard tagsPossible, bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count,
                    Self.startsMarkup(bytes[index + 1])
                else {
                    index += 1
                    continue
                }
                guard let end = Self.tagEnd(bytes, from: index + 1) else {
                    tagsPossible = false
                    continue
                }
                appendText(bytes[text..<index])
                markup(bytes[(index + 1)..<end])
                index = end + 1
                text = index
            }
            if output.count <= limit { appendText(bytes[text..<index]) }
            while let name = open.popLast() { close(name) }
        }

        /// Where reading goes on after the end tag of `name` (`</name` then a space, `/` or
        /// `>`, in any case) at or after `start`; `nil` when there is none.
        static func endTag(of name: String, in bytes: [UInt8], from start: Int) -> Int? {
            let pattern = Array("</\(name)".utf8)
            var index = start
            while let found = ByteScan.index(of: UInt8(ascii: "<"), in: bytes, from: index) {
                let after = found + pattern.count
                if after <= bytes.count,
                    zip(bytes[found..<after], pattern).allSatisfy({ ByteScan.lowercase($0) == $1 }),
                    after == bytes.count || ByteScan.isSpace(bytes[after]) || bytes[after] == UInt8(ascii: "/")
                        || bytes[after] == UInt8(ascii: ">")
                {
                    guard let close = ByteScan.index(of: UInt8(ascii: ">"), in: bytes, from: after) else {
                        return bytes.count
                    }
                    return close + 1
                }
                index = found + 1
            }
            return nil
        }

        static func startsMarkup(_ byte: UInt8) -> Bool {
            ByteScan.isAlphanumeric(byte) && !ByteScan.isDigit(byte) || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
        }

        /// The index of the `>` that ends the markup starting at `start`, quotes skipped (and
        /// a comment's `-->`); `nil` when the input ends first.
        static func tagEnd(_ bytes: [UInt8], from start: Int) -> Int? {
            if bytes[start...].starts(with: "!--".utf8) {
                // `<!-->` and `<!--->` end at once, as browsers read them; else `-->` or `--!>`.
                if bytes[(start + 3)...].starts(with: ">".utf8) { return start + 3 }
                if bytes[(start + 3)...].starts(with: "->".utf8) { return start + 4 }
                var index = start + 3
                while index + 2 < bytes.count {
                    if bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-") {
                        if bytes[index + 2] == UInt8(ascii: ">") { return index + 2 }
                        if bytes[index + 2] == UInt8(ascii: "!"), index + 3 < bytes.count,
                            bytes[index + 3] == UInt8(ascii: ">")
                        {
                            return index + 3
                        }
                    }
                    index += 1
                }
                return nil
            }
            var quote: UInt8?
            // A quote opens a value only after `=` (white space between allowed), as in a browser.
            var afterEquals = false
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: ">") {
                    return index
                } else if byte == UInt8(ascii: "=") {
                    afterEquals = true
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    if afterEquals { quote = byte }
                    afterEquals = false
                } else if !ByteScan.isSpace(byte) {
                    afterEquals = false
                }
                index += 1
            }
            return nil
        }

        mutating func appendText(_ bytes: ArraySlice<UInt8>) {
            guard dropping == nil, !bytes.isEmpty else { return }
            FeedHTML.appendEscaped(decoded(bytes), to: &output)
        }

        /// A tag's inside (between `<` and `>`).
        mutating func markup(_ body: ArraySlice<UInt8>) {
            guard let first = body.first else { return }
            if first == UInt8(ascii: "!") || first == UInt8(ascii: "?") { return }  // comments, declarations
            let isEnd = first == UInt8(ascii: "/")
            let nameStart = isEnd ? body.index(after: body.startIndex) : body.startIndex
            var nameEnd = nameStart
            while nameEnd < body.endIndex, ByteScan.isAlphanumeric(body[nameEnd]) { nameEnd += 1 }
            guard nameEnd > nameStart else { return }
            let name = String(decoding: body[nameStart..<nameEnd].map(ByteScan.lowercase), as: UTF8.self)
            if isEnd {
                guard let index = open.lastIndex(of: name) else { return }
                while open.count > index { close(open.removeLast()) }
                return
            }
            if FeedHTML.droppedWithText.contains(name) {
                // `<script/>` starts a script all the same, as browsers read it.
                dropping = name
                return
            }
            guard FeedHTML.allowedElements.contains(name) else { return }
            let isVoid = FeedHTML.voidElements.contains(name)
            // A tag dropped for depth closes nothing either.
            guard isVoid || open.count < FeedHTML.maximumDepth else { return }
            closeImplied(by: name)
            output.append(UInt8(ascii: "<"))
            output.append(contentsOf: name.utf8)
            attributes(body[nameEnd...], of: name)
            output.append(UInt8(ascii: ">"))
            if !isVoid { open.append(name) }
        }

        /// Elements whose end tag may be left out, closed by `name` opening as a browser closes
        /// them: an `li` by the next `li` in its list, a `p` by a block, a cell by the next cell
        /// or row.
        mutating func closeImplied(by name: String) {
            let (closes, within): (Set<String>, Set<String>)
            switch name {
            case "li": (closes, within) = Self.listItems
            case "dt", "dd": (closes, within) = Self.definitions
            case "td", "th": (closes, within) = Self.cells
            case "tr": (closes, within) = Self.rows
            case _ where FeedHTML.closesParagraph.contains(name): (closes, within) = Self.paragraphs
            default: return
            }
            // Within the innermost scope (the list, the table), the outermost element it closes.
            let scope = open.lastIndex(where: { within.contains($0) }).map { $0 + 1 } ?? 0
            guard let index = open[scope...].firstIndex(where: { closes.contains($0) }) else { return }
            while open.count > index { close(open.removeLast()) }
        }

        /// What each kind of element closes, and the scope it looks in.
        static let listItems: (Set<String>, Set<String>) = (["li"], ["ul", "ol"])
        static let definitions: (Set<String>, Set<String>) = (["dt", "dd"], ["dl"])
        static let cells: (Set<String>, Set<String>) = (["td", "th"], ["tr", "table"])
        static let rows: (Set<String>, Set<String>) = (["tr", "td", "th"], ["table", "thead", "tbody", "tfoot"])
        static let paragraphs: (Set<String>, Set<String>) = (["p"], FeedHTML.paragraphScope)

        mutating func close(_ name: String) {
            output.append(contentsOf: "</".utf8)
            output.append(contentsOf: name.utf8)
            output.append(UInt8(ascii: ">"))
        }

        /// The allowed attributes of a tag, each once, URLs resolved and checked.
        mutating func attributes(_ bytes: ArraySlice<UInt8>, of element: String) {
            var seen: Set<String> = []
            var index = bytes.startIndex
            let end = bytes.endIndex
            while index < end {
                while index < end, ByteScan.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
                let nameStart = index
                while index < end, !ByteScan.isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="),
                    bytes[index] != UInt8(ascii: "/")
                {
                    index += 1
                }
                guard index > nameStart else {
                    index += 1
                    continue
                }
                let name = String(decoding: bytes[nameStart..<index].map(ByteScan.lowercase), as: UTF8.self)
                while index < end, ByteScan.isSpace(bytes[index]) { index += 1 }
                var value: ArraySlice<UInt8> = []
                if index < end, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    while index < end, ByteScan.isSpace(bytes[index]) { index += 1 }
                    if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                        let quote = bytes[index]
                        let valueStart = index + 1
                        index = valueStart
                        while index < end, bytes[index] != quote { index += 1 }
                        value = bytes[valueStart..<index]
                        if index < end { index += 1 }
                    } else {
                        let valueStart = index
                        while index < end, !ByteScan.isSpace(bytes[index]) { index += 1 }
                        value = bytes[valueStart..<index]
                    }
                }
                guard FeedHTML.allowedAttributes.contains(name), seen.insert(name).inserted else { continue }
                var text = decoded(value)
                if FeedHTML.urlAttributes.contains(name) {
                    guard let url = safeURL(text, allowMail: name == "href") else { continue }
                    text = Array(url.utf8)
                }
                output.append(UInt8(ascii: " "))
                output.append(contentsOf: name.utf8)
                output.append(contentsOf: "=\"".utf8)
                FeedHTML.appendEscaped(text, to: &output)
                output.append(UInt8(ascii: "\""))
            }
            if element == "a" { output.append(contentsOf: #" rel="noopener noreferrer nofollow""#.utf8) }
        }

        /// `text` (a decoded attribute value) as an absolute `http`, `https` (or `mailto`) URL,
        /// resolved against the base; `nil` for any other scheme, or a relative URL without a base.
        func safeURL(_ text: [UInt8], allowMail: Bool) -> String? {
            // Browsers ignore tabs and line breaks in URLs, and spaces and controls at the ends.
            let cleaned = text.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
            let trimmed = cleaned.drop { $0 <= 0x20 }.reversed().drop { $0 <= 0x20 }.reversed()
            let string = String(decoding: trimmed, as: UTF8.self)
            guard !string.isEmpty, string.utf8.count <= FeedHTML.maximumURLLength else { return nil }
            let url =
                URL(string: string, relativeTo: base)
                ?? URL(string: string.replacingOccurrences(of: " ", with: "%20"), relativeTo: base)
            guard let url else { return nil }
            return FeedHTML.webAddress(url, allowMail: allowMail)
        }

        /// `bytes` with HTML's character references decoded.
        func decoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            guard bytes.contains(UInt8(ascii: "&")) else { return Array(bytes) }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == UInt8(ascii: "&"), let (range, next) = CharacterReference.name(in: bytes, at: index),
                    let scalar = CharacterReference.html(bytes[range])
                {
                    result.append(contentsOf: String(scalar).utf8)
                    index = next
                } else {
                    result.append(byte)
                    index += 1
                }
            }
            return result
        }
    }
}
