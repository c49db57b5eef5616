import Foundation

/// Percent-encoding for paths, query strings and forms.
enum PercentEncoding {
    /// RFC 3986 unreserved characters: the only bytes a query component keeps as they are, so
    /// that `&`, `+`, `=`, `#`, `%` and every script arrive at the server exactly as given.
    static func encodeComponent(_ string: String) -> String {
        encode(string) { isUnreserved($0) }
    }

    /// Encodes a path: keeps `/`, sub-delimiters, `:`, `@` and existing `%XX` escapes; encodes
    /// everything else, `?` and `#` included, so a path can never start a query or fragment.
    static func encodePath(_ path: String) -> String {
        // Most paths need no escaping at all.
        if path.utf8.allSatisfy({ isUnreserved($0) || isPathCharacter($0) }) { return path }
        let bytes = Array(path.utf8)
        var result = ""
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2])
            {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else if isUnreserved(byte) || isPathCharacter(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscape(byte, to: &result)
            }
            index += 1
        }
        return result
    }

    /// `name=value&…` with strict component encoding; a `nil` value gives `name` alone.
    static func query(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = encodeComponent(item.name)
            guard let value = item.value else { return name }
            return name + "=" + encodeComponent(value)
        }.joined(separator: "&")
    }

    /// `application/x-www-form-urlencoded` as the WHATWG URL standard defines it: spaces as `+`,
    /// `*-._` and alphanumerics kept, everything else escaped.
    static func formEncoded(_ fields: [(name: String, value: String)]) -> String {
        func encodeForm(_ string: String) -> String {
            encode(string) { byte in
                isAlphanumeric(byte) || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ")
            }.replacingOccurrences(of: " ", with: "+")
        }
        return fields.map { encodeForm($0.name) + "=" + encodeForm($0.value) }.joined(separator: "&")
    }

    // MARK: - Bytes

    private static func encode(_ string: String, keeping keep: (UInt8) -> Bool) -> String {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if keep(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscape(byte, to: &result)
            }
        }
        return result
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    private static func appendEscape(_ byte: UInt8, to result: inout String) {
        result.unicodeScalars.append("%")
        result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
        result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
