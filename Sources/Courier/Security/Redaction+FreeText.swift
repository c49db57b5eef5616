extension Redaction {
    /// `text` with the credentials in every URL it contains replaced by `REDACTED`: the values
    /// of secret query and fragment items (`?api_key=…`, `&access_token=…`, `#access_token=…`,
    /// `;jsessionid=…`, also after `&amp;`) and user information (`https://user:password@host`,
    /// also with JSON's `\/` escapes). For header values such as `Location` and `Link`, and for
    /// text bodies, where URLs hide in free text.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The text with those values replaced; `text` itself when it holds none.
    public static func redactingURLs(in text: String) -> String {
        redacting(text, as: .freeText)
    }

    /// The URL with the values of secret query and fragment items and any user information
    /// replaced.
    ///
    /// - Parameter url: A URL, as text.
    /// - Returns: The URL with those values replaced; `url` itself when it holds none.
    public static func redactingURL(_ url: String) -> String {
        redacting(url, as: .url)
    }

    /// `name=value&…` (a query or a URL-encoded form) with the values of secret names replaced.
    static func redactingQuery(_ query: Substring) -> String {
        redacting(String(query), as: .form)
    }

    private static func redacting(_ text: String, as syntax: Syntax) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "@") }),
            let redacted = redactingItems(in: Array(text.utf8), as: syntax)
        else { return text }
        return String(decoding: redacted, as: UTF8.self)
    }

    /// Where credentials are looked for, and where their values end.
    struct Syntax {
        /// Text that may contain URLs: values end at quotes, brackets and white space too.
        static let freeText = Syntax(itemAtStart: false, valueEnds: Set("?&#;\"'<>".utf8), spaceEnds: true)
        /// One URL.
        static let url = Syntax(itemAtStart: false, valueEnds: Set("?&#;".utf8), spaceEnds: false)
        /// A URL-encoded form: the first item starts the text, and only `&` ends a value.
        static let form = Syntax(itemAtStart: true, valueEnds: Set("&".utf8), spaceEnds: false)

        var itemAtStart: Bool
        var valueEnds: Set<UInt8>
        /// Whether white space and control characters end a value.
        var spaceEnds: Bool

        func endsValue(_ byte: UInt8) -> Bool {
            valueEnds.contains(byte) || (spaceEnds && (byte <= 0x20 || byte == 0x7F))
        }
    }

    /// The bytes with credentials replaced, or `nil` when there were none. One pass: each byte
    /// is looked at a bounded number of times.
    static func redactingItems(in bytes: [UInt8], as syntax: Syntax) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0  // bytes[..<copied] are decided
        func replace(_ range: Range<Int>) {
            guard !bytes[range].elementsEqual(placeholder.utf8) else { return }
            if output.isEmpty { output.reserveCapacity(bytes.count) }
            output += bytes[copied..<range.lowerBound]
            output += placeholder.utf8
            copied = range.upperBound
        }
        var index = syntax.itemAtStart ? -1 : 0
        while index < bytes.count {
            let byte = index < 0 ? UInt8(ascii: "&") : bytes[index]
            // `\u0026` is `&` in JSON as Go's encoder writes it.
            let escapedAmpersand = byte == UInt8(ascii: "\\") && bytes[(index + 1)...].starts(with: "u0026".utf8)
            if Self.itemStarts.contains(byte) || escapedAmpersand {
                // An item: `name=value`.
                let nameStart = index + (escapedAmpersand ? 6 : 1)
                var nameEnd = nameStart
                while nameEnd < bytes.count, isQueryNameByte(bytes[nameEnd]) { nameEnd += 1 }
                guard nameEnd > nameStart, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: "="),
                    isSecretQueryName(Substring(decoding: bytes[nameStart..<nameEnd], as: UTF8.self))
                else {
                    index = max(nameEnd, index + 1)
                    continue
                }
                var valueEnd = nameEnd + 1
                while valueEnd < bytes.count, !syntax.endsValue(bytes[valueEnd]) { valueEnd += 1 }
                if valueEnd > nameEnd + 1 { replace((nameEnd + 1)..<valueEnd) }
                index = valueEnd
            } else if byte == UInt8(ascii: ":"), let authorityStart = authorityStart(bytes, afterColonAt: index) {
                // An authority: user information ends at its last `@` before the host.
                var end = authorityStart
                var lastAt: Int?
                while end < bytes.count, !endsAuthority(bytes[end]) {
                    if bytes[end] == UInt8(ascii: "@") { lastAt = end }
                    end += 1
                }
                if let lastAt, lastAt > authorityStart { replace(authorityStart..<lastAt) }
                index = end
            } else {
                index += 1
            }
        }
        guard copied > 0 else { return nil }
        output += bytes[copied...]
        return output
    }

    /// Where an authority starts after `://` (or `:\/\/`, as JSON may escape it) at `colon`.
    private static func authorityStart(_ bytes: [UInt8], afterColonAt colon: Int) -> Int? {
        let slash = UInt8(ascii: "/")
        let backslash = UInt8(ascii: "\\")
        if colon + 2 < bytes.count, bytes[colon + 1] == slash, bytes[colon + 2] == slash { return colon + 3 }
        if colon + 4 < bytes.count, bytes[colon + 1] == backslash, bytes[colon + 2] == slash,
            bytes[colon + 3] == backslash, bytes[colon + 4] == slash
        {
            return colon + 5
        }
        return nil
    }

    private static func isQueryNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%")
            || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "+")
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || Self.authorityEnds.contains(byte)
    }

    /// What comes before an item's name: a query, its separators, a fragment.
    private static let itemStarts = Set("?&;#".utf8)
    private static let authorityEnds = Set("/\\?#\"'<>()".utf8)
}
