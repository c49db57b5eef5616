import Foundation

/// The form of a text that prefix searches compare: case, accents and width folded away, so
/// "cote" finds "Côte d'Ivoire", "ÉTR" finds "Étranger" and "strasse" finds "Straße".
///
/// The rule, per Unicode scalar: compatibility decomposition (NFKD: "ﬁ" → "fi", full-width
/// letters → ASCII), combining marks dropped, lowercased, then the letters that carry their
/// mark inside them and do not decompose (ø, ł, đ, ħ, ı, ß, æ, œ, þ) spelled as people type
/// them. Typographic quotes and dashes become their ASCII forms; whitespace runs become one
/// space and leading whitespace is dropped. Keys compare as UTF-8 bytes.
package enum SearchKey {
    /// The folded UTF-8 bytes of `text`.
    package static func fold(_ text: some StringProtocol) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count)
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in text.utf8 { appendASCII(byte, to: &key) }
        } else {
            for scalar in String(text).decomposedStringWithCompatibilityMapping.unicodeScalars {
                appendFolded(scalar, to: &key)
            }
        }
        return key
    }

    private static func appendASCII(_ byte: UInt8, to key: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): key.append(byte | 0x20)
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20: appendSpace(to: &key)
        case 0x00..<0x20, 0x7F: break
        default: key.append(byte)
        }
    }

    private static func appendSpace(to key: inout [UInt8]) {
        if let last = key.last, last != 0x20 { key.append(0x20) }
    }

    private static func appendFolded(_ scalar: Unicode.Scalar, to key: inout [UInt8]) {
        if scalar.isASCII {
            appendASCII(UInt8(scalar.value), to: &key)
            return
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark, .control, .format: return
        case .spaceSeparator, .lineSeparator, .paragraphSeparator:
            appendSpace(to: &key)
            return
        default: break
        }
        if let replacement = replacements[scalar] {
            key.append(contentsOf: replacement.utf8)
            return
        }
        for lower in properties.lowercaseMapping.unicodeScalars {
            if let replacement = replacements[lower] {
                key.append(contentsOf: replacement.utf8)
            } else {
                key.append(contentsOf: String(lower).utf8)
            }
        }
    }

    /// Letters without a decomposition, and punctuation people type in its ASCII form.
    private static let replacements: [Unicode.Scalar: String] = [
        "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ħ": "h", "Ħ": "h",
        "ı": "i", "ŧ": "t", "Ŧ": "t", "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
        "þ": "th", "Þ": "th", "ς": "σ", "ſ": "s",
        "\u{2018}": "'", "\u{2019}": "'", "\u{201B}": "'", "\u{2032}": "'", "\u{02BC}": "'",
        "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"", "\u{00AB}": "\"", "\u{00BB}": "\"",
        "\u{2010}": "-", "\u{2011}": "-", "\u{2012}": "-", "\u{2013}": "-", "\u{2014}": "-", "\u{2212}": "-",
        "\u{2026}": "...",
    ]
}
