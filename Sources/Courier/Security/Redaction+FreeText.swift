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
    ///
    /// The value of an item that is not itself secret may be a URL percent-encoded
    /// (`?next=https%3A%2F%2Fx%3Fapi_key%3DSECRET`, OAuth's `redirect_uri=`): it is decoded once
    /// and redacted by the same rule, and written back encoded when that found a secret. With
    /// `decodingValues` off (inside such a value) it is not decoded again, so the work stays
    /// linear.
    static func redactingItems(in bytes: [UInt8], as syntax: Syntax, decodingValues: Bool = true) -> [UInt8]? {
        var output: [UInt8] = []
        var copied = 0  // bytes[..<copied] are decided
        func replace(_ range: Range<Int>, with replacement: some Collection<UInt8> = placeholder.utf8) {
            guard !bytes[range].elementsEqual(replacement) else { return }
            if output.isEmpty { output.reserveCapacity(bytes.count) }
            output += bytes[copied..<range.lowerBound]
            output += replacement
            copied = range.upperBound
        }
        var index = syntax.itemAtStart ? -1 : 0
        var decodedUpTo = 0  // values before this were decoded already (an item inside one ends with it)
        while index < bytes.count {
            let byte = index < 0 ? UInt8(ascii: "&") : bytes[index]
            // `\u0026` is `&` in JSON as Go's encoder writes it.
            let escapedAmpersand = byte == UInt8(ascii: "\\") && bytes[(index + 1)...].starts(with: "u0026".utf8)
            if Self.itemStarts.contains(byte) || escapedAmpersand {
                // An item: `name=value`.
                let nameStart = index + (escapedAmpersand ? 6 : 1)
                var nameEnd = nameStart
                while nameEnd < bytes.count, isQueryNameByte(bytes[nameEnd]) { nameEnd += 1 }
                guard nameEnd > nameStart, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: "=") else {
                    index = max(nameEnd, index + 1)
                    continue
                }
                let secret = isSecretQueryName(Substring(decoding: bytes[nameStart..<nameEnd], as: UTF8.self))
                // A value is read to its end once: a secret's, or one not inside a value read already.
                guard secret || (decodingValues && nameEnd + 1 >= decodedUpTo) else {
                    index = nameEnd
                    continue
                }
                var valueEnd = nameEnd + 1
                while valueEnd < bytes.count, !syntax.endsValue(bytes[valueEnd]) { valueEnd += 1 }
                let value = (nameEnd + 1)..<valueEnd
                if secret {
                    if !value.isEmpty { replace(value) }
                    index = valueEnd
                } else {
                    decodedUpTo = valueEnd
                    if let redacted = redactingEncodedURLs(in: bytes[value]) {
                        replace(value, with: redacted)
                        index = valueEnd
                    } else {
                        index = nameEnd
                    }
                }
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

    /// A percent-encoded value with the credentials of the URLs it holds replaced, encoded again
    /// (the characters a query value may hold as they are, the rest as `%XX`); `nil` when it
    /// is not encoded or holds none.
    private static func redactingEncodedURLs(in value: ArraySlice<UInt8>) -> [UInt8]? {
        guard value.contains(UInt8(ascii: "%")) else { return nil }
        let decoded = percentDecoded(value)
        guard decoded.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "@") }),
            let redacted = redactingItems(in: decoded, as: .freeText, decodingValues: false)
        else { return nil }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(redacted.count * 3)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in redacted {
            if isUnreservedByte(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return encoded
    }

    /// Every `%HH` as its byte; a `%` not followed by two hex digits stays as it is.
    private static func percentDecoded(_ value: ArraySlice<UInt8>) -> [UInt8] {
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(value.count)
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == UInt8(ascii: "%"), index + 2 < value.endIndex,
                let high = hexValue(value[index + 1]), let low = hexValue(value[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(value[index])
                index += 1
            }
        }
        return decoded
    }

    /// RFC 3986's unreserved characters: ASCII letters, digits, `-`, `.`, `_`, `~`.
    private static func isUnreservedByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
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

    /// The unreserved characters, and `%`, `[`, `]`, `+` (`user%5Bpassword%5D`, `a[b]`).
    private static func isQueryNameByte(_ byte: UInt8) -> Bool {
        isUnreservedByte(byte) || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "+")
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || Self.authorityEnds.contains(byte)
    }

    /// What comes before an item's name: a query, its separators, a fragment.
    private static let itemStarts = Set("?&;#".utf8)
    private static let authorityEnds = Set("/\\?#\"'<>()".utf8)
}
