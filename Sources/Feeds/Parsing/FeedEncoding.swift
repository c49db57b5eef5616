import Foundation

/// Finding a feed's character encoding and turning it into UTF-8, in feedparser's order: the
/// HTTP charset (US-ASCII for `text/*` without one, per RFC 3023), the XML declaration, the
/// byte order mark, then UTF-8, windows-1252 and ISO-8859-2. Using a later candidate because an
/// earlier one failed, a declaration the HTTP charset overrides, or a non-XML content type
/// make the document not well-formed.
enum FeedEncoding {
    struct Decoded {
        var utf8: [UInt8]
        var encoding: String
        var problem: String?
    }

    static func decode(_ data: Data, contentType: String?) -> Decoded {
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
        let bytes = [UInt8](data)
        let bom = byteOrderMark(bytes)
        let declared = declaredEncoding(bytes, bom: bom?.name ?? sniffedEncoding(bytes))
        if let http, let declared, normalized(http) != normalized(declared) {
            problem = problem ?? "the HTTP charset \(http) overrides the declared encoding \(declared)"
        }
        var candidates: [String] = []
        for candidate in [http, declared, bom?.name, sniffedEncoding(bytes), "utf-8", "windows-1252", "iso-8859-2"] {
            if let candidate, !candidates.contains(normalized(candidate)) { candidates.append(normalized(candidate)) }
        }
        let body = bom.map { Data(bytes.dropFirst($0.length)) } ?? data
        for (index, candidate) in candidates.enumerated() {
            guard let encoding = stringEncoding(candidate), let text = String(data: body, encoding: encoding) else {
                continue
            }
            if index > 0, problem == nil {
                problem = "the document is not valid \(candidates[0]); read as \(candidate)"
            }
            return Decoded(utf8: Array(text.utf8), encoding: candidate, problem: problem)
        }
        return Decoded(
            utf8: Array(String(decoding: body, as: UTF8.self).utf8),
            encoding: "utf-8",
            problem: problem ?? "no encoding reads the document"
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
    private static func declaredEncoding(_ bytes: [UInt8], bom layout: String?) -> String? {
        let prefix = Data(bytes.prefix(1024))
        let text: String?
        if let layout, let encoding = stringEncoding(layout) {
            text =
                String(data: prefix.dropFirst(byteOrderMark(bytes)?.length ?? 0), encoding: encoding)
                ?? String(decoding: prefix, as: UTF8.self)
        } else {
            text = String(decoding: prefix, as: UTF8.self)
        }
        guard let text, let start = text.range(of: "<?xml"),
            let end = text.range(of: "?>", range: start.upperBound..<text.endIndex)
        else { return nil }
        let declaration = text[start.upperBound..<end.lowerBound]
        guard
            let match = declaration.range(of: #"encoding\s*=\s*["'][A-Za-z0-9._:-]+["']"#, options: .regularExpression)
        else { return nil }
        let value = declaration[match].split(whereSeparator: { $0 == "\"" || $0 == "'" }).dropFirst().first
        return value.map { String($0).lowercased() }
    }

    private static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        switch lower {
        case "utf8": return "utf-8"
        case "latin1", "latin-1", "l1", "iso_8859-1", "iso8859-1": return "iso-8859-1"
        case "cp1252", "windows1252": return "windows-1252"
        case "ascii", "us_ascii": return "us-ascii"
        default: return lower
        }
    }

    /// Foundation's encoding for an IANA name, where it has one.
    static func stringEncoding(_ name: String) -> String.Encoding? {
        switch normalized(name) {
        case "utf-8": .utf8
        case "utf-16": .utf16
        case "utf-16be": .utf16BigEndian
        case "utf-16le": .utf16LittleEndian
        case "utf-32": .utf32
        case "utf-32be": .utf32BigEndian
        case "utf-32le": .utf32LittleEndian
        case "us-ascii": .ascii
        case "iso-8859-1": .isoLatin1
        case "iso-8859-2": .isoLatin2
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "windows-1252": .windowsCP1252
        case "windows-1253", "cp1253": .windowsCP1253
        case "windows-1254", "cp1254": .windowsCP1254
        case "shift_jis", "sjis", "shift-jis": .shiftJIS
        case "euc-jp": .japaneseEUC
        case "iso-2022-jp": .iso2022JP
        case "macintosh", "mac-roman", "macroman": .macOSRoman
        default: nil
        }
    }
}
