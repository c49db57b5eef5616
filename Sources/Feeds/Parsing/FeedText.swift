import CourierXML

/// Turning the text of feeds into plain text for display. Everything runs on UTF-8 bytes: feeds
/// are mostly ASCII markup, and `Character`-level work would cost grapheme breaking per byte.
enum FeedText {
    /// `html` without its markup: tags, comments and processing instructions removed, the
    /// content of `script` and `style` dropped, references decoded, white space collapsed.
    static func plainText(fromHTML html: String) -> String {
        var scanned = 0
        return plainText(fromHTML: html, scanned: &scanned)
    }

    /// ``plainText(fromHTML:)``, adding to `scanned` how many bytes the searches for the ends of
    /// tags and comments looked at (linear in the text, whatever it holds: the tests check it).
    static func plainText(fromHTML html: String, scanned: inout Int) -> String {
        var output = TextBuilder(capacity: html.utf8.count)
        withBytes(of: html) { appendPlainText(of: $0, to: &output, scanned: &scanned) }
        return output.string
    }

    /// One pass over the bytes: tags skipped, references decoded, white space collapsed.
    ///
    /// Linear in the text, whatever it holds: a `<` that cannot start a tag (`<<`, `< `) is text
    /// at once, without looking for a `>`. A tag's end is looked for skipping quoted values;
    /// when a quote never closes, the first `>` ends the tag instead, and so for every later
    /// tag (a quote-aware search from there would run to the end again: quadratic); when there
    /// is no `>` at all, the rest is text.
    private static func appendPlainText(
        of bytes: UnsafeBufferPointer<UInt8>,
        to output: inout TextBuilder,
        scanned: inout Int
    ) {
        var index = 0
        let count = bytes.count
        var skippingUntil: [UInt8]?
        var tagsEnded = false  // no `>` after here: the rest is text
        var quotesUnclosed = false  // a quoted value ran to the end: tags end at their first `>`
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                let (scalar, next) = reference(in: bytes, at: index)
                if skippingUntil == nil {
                    if let scalar { output.append(scalar) } else { output.append(byte) }
                }
                index = next
                continue
            }
            guard byte == UInt8(ascii: "<"), !tagsEnded else {
                // Text: a run of it at once, up to the next byte that needs a look.
                let end = TextBuilder.plainRunEnd(bytes, from: index)
                if skippingUntil == nil {
                    if end > index {
                        output.append(run: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    } else {
                        output.append(byte)
                    }
                }
                index = max(end, index + 1)
                continue
            }
            if index + 3 < count, bytes[index + 1] == UInt8(ascii: "!"), bytes[index + 2] == UInt8(ascii: "-"),
                bytes[index + 3] == UInt8(ascii: "-")
            {
                let end = ByteScan.index(of: Self.commentClose, in: bytes, from: index + 4).map { $0 + 3 } ?? count
                scanned += end - index
                index = end
                continue
            }
            let isEnd = index + 1 < count && bytes[index + 1] == UInt8(ascii: "/")
            let nameStart = isEnd ? index + 2 : index + 1
            let marker = nameStart < count ? bytes[nameStart] : 0
            guard isEnd || ByteScan.isAlphanumeric(marker) || marker == UInt8(ascii: "!") || marker == UInt8(ascii: "?")
            else {
                // Not a tag: a lone '<' in text.
                if skippingUntil == nil { output.append(byte) }
                index += 1
                continue
            }
            var close: Int?
            if !quotesUnclosed {
                close = tagEnd(in: bytes, from: index)
                scanned += (close ?? count) - index
            }
            if close == nil {
                quotesUnclosed = true
                close = ByteScan.index(of: UInt8(ascii: ">"), in: bytes, from: index + 1)
                scanned += (close ?? count) - index
            }
            guard let close else {
                tagsEnded = true
                if skippingUntil == nil { output.append(byte) }
                index += 1
                continue
            }
            var nameEnd = nameStart
            while nameEnd < close, ByteScan.isAlphanumeric(bytes[nameEnd]) { nameEnd += 1 }
            let isScriptOrStyle =
                equalsIgnoringCase(bytes[nameStart..<nameEnd], "script")
                || equalsIgnoringCase(bytes[nameStart..<nameEnd], "style")
            if let skipping = skippingUntil {
                if isEnd, bytes[nameStart..<nameEnd].map(ByteScan.lowercase) == skipping { skippingUntil = nil }
            } else if !isEnd, isScriptOrStyle, bytes[close - 1] != UInt8(ascii: "/") {
                skippingUntil = bytes[nameStart..<nameEnd].map(ByteScan.lowercase)
            }
            index = close + 1
        }
    }

    /// The character a reference at `index` stands for (`nil` if it is not one), and where
    /// reading continues.
    private static func reference(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar?, Int) {
        guard let (name, next) = CharacterReference.name(in: bytes, at: index),
            let scalar = CharacterReference.html(bytes[name])
        else { return (nil, index + 1) }
        return (scalar, next)
    }

    private static func equalsIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { buffer in zip(bytes, buffer).allSatisfy { ByteScan.lowercase($0) == $1 } }
    }

    /// Output text under construction: runs of ASCII white space become one space, leading and
    /// trailing space is dropped, and C1 controls become their windows-1252 characters.
    struct TextBuilder {
        private var bytes: [UInt8] = []
        private var pendingSpace = false

        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = !bytes.isEmpty
                return
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            // C1 controls are encoded C2 80 … C2 9F: replace the pair when the second byte comes.
            if byte >= 0x80, byte <= 0x9F, bytes.last == 0xC2, let replacement = Windows1252.c1[UInt32(byte)] {
                bytes.removeLast()
                bytes.append(contentsOf: String(replacement).utf8)
                return
            }
            bytes.append(byte)
        }

        mutating func append(_ scalar: Unicode.Scalar) {
            if scalar.isASCII {
                append(UInt8(scalar.value))
                return
            }
            for byte in String(scalar).utf8 { append(byte) }
        }

        /// Appends bytes none of which is white space, `&`, `<` or the lead of a C1 control
        /// (``plainRunEnd(_:from:)`` finds such runs).
        mutating func append(run: UnsafeBufferPointer<UInt8>) {
            // The second byte of a C1 control (C2 80 … C2 9F) goes through the check.
            if let first = run.first, first >= 0x80, first <= 0x9F, bytes.last == 0xC2 {
                append(first)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: run.dropFirst()))
                return
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append(contentsOf: run)
        }

        /// Appends text, collapsing white space, a run at a time.
        mutating func append(text: UnsafeBufferPointer<UInt8>) {
            var index = 0
            while index < text.count {
                let end = Self.plainRunEnd(text, from: index)
                if end > index {
                    append(run: UnsafeBufferPointer(rebasing: text[index..<end]))
                    index = end
                } else {
                    append(text[index])
                    index += 1
                }
            }
        }

        /// Where the run of bytes from `start` that need no look ends: not white space or a
        /// control (but single spaces between such bytes), not `&` or `<`, not C2 (the lead of a
        /// C1 control).
        static func plainRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            @inline(__always) func isPlain(_ byte: UInt8) -> Bool {
                byte > 0x20 && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != 0xC2
            }
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if isPlain(byte) {
                    index += 1
                } else if byte == 0x20, index > start, index + 1 < bytes.count, isPlain(bytes[index + 1]) {
                    index += 2
                } else {
                    break
                }
            }
            return index
        }

        var string: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// `text` with runs of ASCII white space made one space, and trimmed; C1 control codes
    /// become the windows-1252 characters they stand for.
    static func collapsingWhitespace(_ text: String) -> String {
        var output = TextBuilder(capacity: text.utf8.count)
        withBytes(of: text) { output.append(text: $0) }
        return output.string
    }

    /// Runs `body` on the UTF-8 bytes of `text`, without copying them when the string is native.
    private static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether RSS text reads as HTML: it has a closing tag or a character reference, every
    /// tag is a known HTML element, and every named reference is an HTML entity.
    static func looksLikeHTML(_ text: String) -> Bool {
        withBytes(of: text, looksLikeHTML(bytes:))
    }

    private static func looksLikeHTML(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.contains(UInt8(ascii: "<")) || bytes.contains(UInt8(ascii: "&")) else { return false }
        var hasCloseTagOrReference = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                let isEnd = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
                var end = isEnd ? index + 2 : index + 1
                let start = end
                while end < bytes.count, ByteScan.isAlphanumeric(bytes[end]) || bytes[end] == UInt8(ascii: "_") {
                    end += 1
                }
                if end > start {
                    if !isHTMLElement(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return false }
                    if isEnd, end < bytes.count, bytes[end] == UInt8(ascii: ">") { hasCloseTagOrReference = true }
                }
                index = end
            } else if byte == UInt8(ascii: "&") {
                var end = index + 1
                let isNumeric = end < bytes.count && bytes[end] == UInt8(ascii: "#")
                if isNumeric { end += 1 }
                let start = end
                while end < bytes.count, ByteScan.isAlphanumeric(bytes[end]) || bytes[end] == UInt8(ascii: "_") {
                    end += 1
                }
                if end > start, end < bytes.count, bytes[end] == UInt8(ascii: ";") {
                    hasCloseTagOrReference = true
                    let name = String(decoding: bytes[start..<end], as: UTF8.self)
                    let allDigits = bytes[start..<end].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                    if !isNumeric, !allDigits, HTMLEntities.named[name] == nil,
                        !["lt", "gt", "amp", "quot", "apos"].contains(name)
                    {
                        return false
                    }
                }
                index = end
            } else {
                index += 1
            }
        }
        return hasCloseTagOrReference
    }

    // MARK: - Bytes

    private static let commentClose = Array("-->".utf8)

    /// The `>` that ends the tag starting at `start`, skipping quoted attribute values (a quote
    /// opens one only after `=`).
    private static func tagEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var quote: UInt8?
        var lastNonSpace: UInt8 = 0
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"), lastNonSpace == UInt8(ascii: "=") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { lastNonSpace = byte }
            index += 1
        }
        return nil
    }

    /// Whether `name` (in any case) is one of ``htmlElements``: compared on the bytes, among the
    /// names of its length.
    private static func isHTMLElement(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count < htmlElementsByLength.count else { return false }
        return htmlElementsByLength[name.count].contains { candidate in
            zip(candidate, name).allSatisfy { $0 == ByteScan.lowercase($1) }
        }
    }

    private static let htmlElementsByLength: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 16)
        for name in htmlElements where name.utf8.count < 16 { table[name.utf8.count].append(Array(name.utf8)) }
        return table
    }()

    /// Elements an HTML fragment in a feed may contain.
    static let htmlElements: Set<String> = [
        "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b", "bdi", "bdo", "big", "blink",
        "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup",
        "command", "datagrid", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em",
        "event-source", "fieldset", "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "head", "header", "hr", "html", "i", "img", "input", "ins", "kbd", "keygen", "label", "legend", "li",
        "m", "map", "mark", "menu", "meter", "multicol", "nav", "nextid", "noscript", "ol", "optgroup", "option",
        "output", "p", "pre", "progress", "q", "s", "samp", "section", "select", "small", "sound", "source",
        "spacer", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "textarea", "tfoot",
        "th", "thead", "time", "tr", "tt", "u", "ul", "var", "video", "wbr", "xmp",
    ]
}
