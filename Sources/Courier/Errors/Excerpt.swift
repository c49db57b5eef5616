import Foundation

/// The start of a body as one line of text, for error messages.
enum Excerpt {
    /// At most `limit` characters of `body`: HTML reduced to its text, whitespace collapsed,
    /// invalid UTF-8 replaced, `…` where it was cut.
    /// A problem-details body (RFC 9457) is reduced to its `detail`, or its `title`.
    static func of(_ body: Data, contentType: String? = nil, limit: Int = 200) -> String {
        guard !body.isEmpty else { return "" }
        if let contentType, MediaType.essence(of: contentType) == "application/problem+json",
            let problem = try? JSONValue(parsing: body),
            let summary = problem["detail"]?.stringValue ?? problem["title"]?.stringValue
        {
            return of(Data(summary.utf8), contentType: "text/plain", limit: limit)
        }
        // Decoding all of a large body to show 200 characters would be wasted work.
        let window = max(limit * 8, 4096)
        var text = String(decoding: body.prefix(window), as: UTF8.self)
        let isHTML = contentType.map { MediaType.essence(of: $0).contains("html") } ?? text.hasPrefix("<")
        if isHTML { text = strippingTags(text) }
        var result = ""
        var lastWasSpace = true
        for character in text {
            if character.isWhitespace || character.isNewline {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else if !(character.unicodeScalars.first?.properties.generalCategory == .control) {
                result.append(character)
                lastWasSpace = false
            }
            if result.count > limit { break }
        }
        if result.hasSuffix(" ") { result.removeLast() }
        if result.count > limit || body.count > window {
            return String(result.prefix(limit)) + "…"
        }
        return result
    }

    /// The text of an HTML page: tags, scripts and styles removed.
    private static func strippingTags(_ html: String) -> String {
        var result = ""
        var inTag = false
        var skipping: String?
        var tag = ""
        for character in html {
            if inTag {
                if character == ">" {
                    inTag = false
                    let name =
                        tag.lowercased().split(whereSeparator: { $0 == " " || $0 == "/" }).first.map(String.init) ?? ""
                    if name == "script" || name == "style" { skipping = name }
                    if let open = skipping, tag.lowercased().hasPrefix("/" + open) { skipping = nil }
                    result.append(" ")
                } else {
                    tag.append(character)
                }
            } else if character == "<" {
                inTag = true
                tag = ""
            } else if skipping == nil {
                result.append(character)
            }
        }
        return result
    }
}
