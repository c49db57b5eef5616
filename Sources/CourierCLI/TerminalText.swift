/// Text from the network or from files made safe to show on a terminal: the characters a
/// terminal would act on instead of showing are written as escapes, so a feed title, a ref name
/// or a server's error body can neither run terminal commands (set the window title, clear the
/// screen, move the cursor) nor disguise itself with bidirectional overrides.
///
/// | Character | Shown as |
/// |---|---|
/// | ESC (U+001B) | `\e` |
/// | newline, tab, carriage return | `\n`, `\t`, `\r` (newline and tab only on one ``Layout/line``) |
/// | other C0 controls, DEL | `\x01` … `\x1f`, `\x7f` |
/// | C1 controls (U+0080 … U+009F) | `\x80` … `\x9f` |
/// | bidi embeddings, overrides and isolates (U+202A … U+202E, U+2066 … U+2069) | `\u{202E}` |
///
/// Everything else, letters of any script, emoji and CJK included, comes through unchanged. A
/// backslash is not escaped: the output is for reading, not for parsing back.
enum TerminalText {
    /// Where the text goes.
    enum Layout {
        /// Lines of text: newlines and tabs are kept.
        case text
        /// One line, such as a table cell: newlines and tabs are escaped too.
        case line
    }

    /// `text` with every character a terminal would act on written as an escape.
    ///
    /// Linear in the length of `text`; returns `text` itself, without allocating, when nothing
    /// needs escaping.
    static func escaped(_ text: String, as layout: Layout = .text) -> String {
        if isPrintableASCII(text) { return text }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { needsEscape($0, layout) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        var runStart = scalars.startIndex
        for index in scalars[first...].indices where needsEscape(scalars[index], layout) {
            result += Substring(scalars[runStart..<index])
            result += escape(scalars[index])
            runStart = scalars.index(after: index)
        }
        result += Substring(scalars[runStart...])
        return result
    }

    /// JSON text with the characters JSON leaves raw but a terminal acts on — DEL, C1 controls
    /// and bidi controls — written as `\uXXXX` escapes, which mean the same characters to
    /// every JSON reader. (JSON escapes C0 controls itself; outside strings JSON is ASCII.)
    static func jsonEscaped(_ json: String) -> String {
        let scalars = json.unicodeScalars
        guard let first = scalars.firstIndex(where: { needsEscape($0, .text) && $0.value >= 0x7F }) else {
            return json
        }
        var result = ""
        result.reserveCapacity(json.utf8.count + 16)
        var runStart = scalars.startIndex
        for index in scalars[first...].indices where needsEscape(scalars[index], .text) && scalars[index].value >= 0x7F
        {
            result += Substring(scalars[runStart..<index])
            let hex = String(scalars[index].value, radix: 16)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            runStart = scalars.index(after: index)
        }
        result += Substring(scalars[runStart...])
        return result
    }

    /// Whether every byte of `text` is printable ASCII (space to `~`), which no layout escapes:
    /// checked on the bytes, the common case for names and identifiers.
    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 &- 0x20 < 0x5F } } ?? false
    }

    /// Whether `scalar` is shown as an escape on `layout`.
    static func needsEscape(_ scalar: Unicode.Scalar, _ layout: Layout) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: layout == .line
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0x00...0xFF:
            let hex = String(scalar.value, radix: 16)
            return "\\x" + (hex.count == 1 ? "0" + hex : hex)
        default:
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
