import Foundation

/// Finding a feed's character encoding from its first bytes and its content type, for
/// ``FeedDecoder``. A declaration the HTTP charset overrides, an unknown encoding name or a
/// non-XML content type make the document not well-formed.
enum FeedEncoding {
    /// The encoding a document is read in, from its first bytes and its content type.
    struct Choice: Equatable {
        /// The encoding's IANA name, normalized (`utf-8`, `iso-8859-1`, `euc-kr`…).
        var encoding: String
        /// The encodings to try, in order, when the whole document is at hand (the first is
        /// ``encoding``): the others are feedparser's fallbacks.
        var candidates: [String] = []
        /// The length of the byte order mark to skip.
        var byteOrderMarkLength = 0
        /// Why the document is not well-formed, as far as its encoding tells.
        var problem: String?
        /// Whether a document said to be Latin-1 is read as UTF-8 when its first non-ASCII
        /// character is UTF-8 (for a stream; a whole document is checked whole instead).
        var guessesUTF8 = true
    }

    /// Chooses the encoding in feedparser's order: the HTTP charset (US-ASCII for `text/*`
    /// without one, per RFC 3023), the XML declaration, the byte order mark, the layout of
    /// `<?xml`, then UTF-8, windows-1252 and ISO-8859-2; a name the system does not know is
    /// passed over.
    ///
    /// - Parameter head: The document's first bytes (1 KiB is enough for a declaration).
    static func choose(head: [UInt8], contentType: String?) -> Choice {
        let (mediaType, httpCharset) = parse(contentType)
        var problem: String?
        let isXMLType =
            mediaType == nil || mediaType == "application/xml" || mediaType == "text/xml"
            || mediaType?.hasSuffix("+xml") == true || mediaType == "application/xml-dtd"
            || mediaType == "application/xml-external-parsed-entity" || mediaType == "text/xml-external-parsed-entity"
            || mediaType == "application/octet-stream"
        if !isXMLType { problem = "the content type \(mediaType ?? "") is not XML" }
        let isText = mediaType?.hasPrefix("text/") == true
        let http = httpCharset ?? (isText && isXMLType ? "us-ascii" : nil)
        let bom = byteOrderMark(head)
        let layout = bom?.name ?? sniffedEncoding(head)
        let declared = declaredEncoding(head, layout: layout, skipping: bom?.length ?? 0)
        if let http, let declared, normalized(http) != normalized(declared) {
            problem = problem ?? "the HTTP charset \(http) overrides the declared encoding \(declared)"
        }
        var candidates: [String] = []
        for candidate in [http, declared, layout, "utf-8", "windows-1252", "iso-8859-2"].compactMap({ $0 }) {
            var name = normalized(candidate)
            // `utf-16` and `utf-32` say nothing of byte order: the mark or the layout does.
            if ["utf-16", "utf-32"].contains(name), let layout, layout.hasPrefix(name) { name = layout }
            guard !candidates.contains(name) else { continue }
            if name == "utf-8" || IconvConverter(from: name) != nil {
                candidates.append(name)
            } else {
                problem = problem ?? "the encoding \(candidate) is unknown"
            }
        }
        return Choice(
            encoding: candidates.first ?? "utf-8",
            candidates: candidates,
            byteOrderMarkLength: bom?.length ?? 0,
            problem: problem
        )
    }

    /// The media type and `charset` parameter of a `Content-Type` value, lowercased.
    static func parse(_ contentType: String?) -> (String?, String?) {
        guard let contentType else { return (nil, nil) }
        let parts = contentType.split(separator: ";")
        let mediaType = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var charset: String?
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"'")
            )
            if !value.isEmpty { charset = value.lowercased() }
        }
        return (mediaType?.isEmpty == true ? nil : mediaType, charset)
    }

    private static func byteOrderMark(_ bytes: [UInt8]) -> (name: String, length: Int)? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return ("utf-32be", 4) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return ("utf-32le", 4) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("utf-8", 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return ("utf-16be", 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return ("utf-16le", 2) }
        return nil
    }

    /// UTF-16 or UTF-32 without a byte order mark, from how `<` is written.
    private static func sniffedEncoding(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) { return "utf-32be" }
        if bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) { return "utf-32le" }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return "utf-16be" }
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return "utf-16le" }
        return nil
    }

    /// The `encoding` of the XML declaration, read in the byte layout `layout` suggests.
    private static func declaredEncoding(_ bytes: [UInt8], layout: String?, skipping mark: Int) -> String? {
        var prefix = Array(bytes.prefix(1024).dropFirst(mark))
        if let layout, layout != "utf-8", let converter = IconvConverter(from: layout) {
            var text: [UInt8] = []
            _ = prefix.withUnsafeBufferPointer { converter.convert($0, into: &text) }
            prefix = text
        }
        let text = String(decoding: prefix, as: UTF8.self)
        // The declaration is at the very start, or it is not one (as feedparser reads it).
        guard text.hasPrefix("<?xml"), let start = text.range(of: "<?xml"),
            let end = text.range(of: "?>", range: start.upperBound..<text.endIndex)
        else { return nil }
        let declaration = text[start.upperBound..<end.lowerBound]
        guard
            let match = declaration.range(of: #"encoding\s*=\s*["'][A-Za-z0-9._:-]+["']"#, options: .regularExpression)
        else { return nil }
        let value = declaration[match].split(whereSeparator: { $0 == "\"" || $0 == "'" }).dropFirst().first
        return value.map { String($0).lowercased() }
    }

    /// The usual IANA spelling of an encoding's name, lowercased.
    static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        switch lower {
        case "utf8": return "utf-8"
        case "latin1", "latin-1", "l1", "iso_8859-1", "iso8859-1": return "iso-8859-1"
        case "cp1252", "windows1252": return "windows-1252"
        case "ascii", "us_ascii": return "us-ascii"
        default: return lower
        }
    }
}
