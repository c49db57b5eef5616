import Foundation

/// Turning the text of feeds into plain text for display.
enum FeedText {
    /// `html` without its markup: tags, comments and processing instructions removed, the
    /// content of `script` and `style` dropped, references decoded, white space collapsed.
    static func plainText(fromHTML html: String) -> String {
        var output = ""
        var index = html.startIndex
        var skippingUntil: String?
        while index < html.endIndex {
            let character = html[index]
            if character == "<" {
                let rest = html[index...]
                if rest.hasPrefix("<!--") {
                    index = rest.range(of: "-->").map(\.upperBound) ?? html.endIndex
                    continue
                }
                if let close = tagEnd(in: rest) {
                    let tag = rest[rest.index(after: rest.startIndex)..<close]
                    let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                    if let skipping = skippingUntil {
                        if tag.hasPrefix("/"), name == skipping { skippingUntil = nil }
                    } else if !tag.hasPrefix("/"), name == "script" || name == "style", !tag.hasSuffix("/") {
                        skippingUntil = name
                    }
                    if name.isEmpty, !tag.hasPrefix("!"), !tag.hasPrefix("?"), !tag.hasPrefix("/") {
                        if skippingUntil == nil { output.append("<") }
                        index = html.index(after: index)
                        continue
                    }
                    index = html.index(after: close)
                    continue
                }
                if skippingUntil == nil { output.append(character) }
                index = html.index(after: index)
                continue
            }
            if skippingUntil == nil { output.append(character) }
            index = html.index(after: index)
        }
        return collapsingWhitespace(decodingReferences(output))
    }

    /// The `>` that ends the tag at the start of `text`, skipping quoted attribute values.
    private static func tagEnd(in text: Substring) -> String.Index? {
        var quote: Character?
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                // A quote opens a value only after `=`, as in an attribute.
                if text[..<index].last(where: { !$0.isWhitespace }) == "=" { quote = character }
            } else if character == ">" {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// Windows-1252's characters for the C1 control codes U+0080–U+009F: text that has them was
    /// windows-1252 read as ISO-8859-1 (or -2), and these are the characters it meant.
    private static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{0192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}",
        0x87: "\u{2021}", 0x88: "\u{02C6}", 0x89: "\u{2030}", 0x8A: "\u{0160}", 0x8B: "\u{2039}", 0x8C: "\u{0152}",
        0x8E: "\u{017D}", 0x91: "\u{2018}", 0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}",
        0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{02DC}", 0x99: "\u{2122}", 0x9A: "\u{0161}", 0x9B: "\u{203A}",
        0x9C: "\u{0153}", 0x9E: "\u{017E}", 0x9F: "\u{0178}",
    ]

    /// `text` with runs of ASCII white space made one space, and trimmed; C1 control codes
    /// become the windows-1252 characters they stand for.
    static func collapsingWhitespace(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0B}"
                || scalar == "\u{0C}"
            {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(windows1252[scalar.value] ?? scalar)
            }
        }
        return result
    }

    /// `text` with HTML character references (named, decimal, hexadecimal) decoded; unknown
    /// names are left as written.
    static func decodingReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest[rest.index(after: ampersand)...]
            let candidate = afterAmpersand.prefix(33)
            if let semicolon = candidate.firstIndex(of: ";") {
                let name = afterAmpersand[..<semicolon]
                if let decoded = decode(name) {
                    result.unicodeScalars.append(decoded)
                    rest = afterAmpersand[afterAmpersand.index(after: semicolon)...]
                    continue
                }
            }
            result += "&"
            rest = afterAmpersand
        }
        result += rest
        return result
    }

    private static func decode(_ name: Substring) -> Unicode.Scalar? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: return HTMLEntities.named[String(name)]
        }
    }

    /// Whether RSS text reads as HTML: it has a closing tag or a character reference, every
    /// tag is a known HTML element, and every named reference is an HTML entity.
    static func looksLikeHTML(_ text: String) -> Bool {
        let hasCloseTag = text.range(of: #"</[A-Za-z0-9]+>"#, options: .regularExpression) != nil
        let hasReference = text.range(of: #"&#?[A-Za-z0-9]+;"#, options: .regularExpression) != nil
        guard hasCloseTag || hasReference else { return false }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let tag = rest[rest.index(after: open)...].drop { $0 == "/" }.prefix {
                $0.isLetter || $0.isNumber || $0 == "_"
            }
            if !tag.isEmpty, !htmlElements.contains(tag.lowercased()) { return false }
            rest = rest[rest.index(after: open)...]
        }
        rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            let after = rest[rest.index(after: ampersand)...]
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty, after.dropFirst(name.count).first == ";", !name.allSatisfy(\.isNumber),
                HTMLEntities.named[String(name)] == nil, !["lt", "gt", "amp", "quot", "apos"].contains(String(name))
            {
                return false
            }
            rest = after
        }
        return true
    }

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
