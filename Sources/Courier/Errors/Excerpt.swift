import Foundation

/// The start of a body as one line of text, for error messages.
enum Excerpt {
    /// At most `limit` characters of `body`: HTML reduced to its text, whitespace collapsed,
    /// invalid UTF-8 replaced, `…` where it was cut.
    static func of(_ body: Data, contentType: String? = nil, limit: Int = 200) -> String {
        guard !body.isEmpty else { return "" }
        // Decoding all of a large body to show 200 characters would be wasted work.
        let window = max(limit * 8, 4096)
        // Servers echo what they were sent: credentials in it are redacted as in logs.
        let start = Redaction.redactingBody(Data(body.prefix(window)), contentType: contentType ?? "text/plain")
        var text = String(decoding: start, as: UTF8.self)
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

    /// Like ``of(_:contentType:limit:)``, but a JSON error body (problem details, TMDB's
    /// `status_message`, …) is reduced to its explanation, so people read the server's words
    /// rather than its punctuation.
    static func ofErrorBody(_ body: Data, contentType: String? = nil, limit: Int = 200) -> String {
        if body.count <= 64 << 10, Self.mayBeJSONObject(body, contentType: contentType),
            let object = try? JSONValue(parsing: body), let message = Self.message(in: object)
        {
            return of(Data(message.utf8), contentType: "text/plain", limit: limit)
        }
        return of(body, contentType: contentType, limit: limit)
    }

    /// The fields APIs put their explanation in, most specific first: problem details
    /// (`detail`, then `title`), TMDB (`status_message`), iTunes (`errorMessage`), OAuth
    /// (`error_description`), and the common `message` and `error` (a string, or an object with
    /// a `message`).
    private static let messageKeys = [
        "detail", "status_message", "errorMessage", "error_description", "message", "error", "title",
    ]

    /// The explanation in a JSON error body, if it has one of the usual fields.
    static func message(in object: JSONValue) -> String? {
        guard case .object = object else { return nil }
        for key in messageKeys {
            if let text = object[key]?.stringValue, !text.isEmpty { return text }
            if let text = object[key]?["message"]?.stringValue, !text.isEmpty { return text }
        }
        return nil
    }

    /// Whether the body is worth parsing as a JSON object: a JSON type, or no type and a `{`.
    private static func mayBeJSONObject(_ body: Data, contentType: String?) -> Bool {
        guard body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else { return false }
        guard let contentType else { return true }
        return MediaType.matches(contentType, anyOf: MediaType.jsonLike)
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
