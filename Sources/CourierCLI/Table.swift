/// Rows of text in aligned columns, sized by what a terminal shows: a flag or a CJK character
/// takes two cells, a combining accent none. Every cell is escaped onto one line
/// (``TerminalText/escaped(_:as:)``): a newline, a tab or a terminal command in a title from the
/// network shows as `\n`, `\t` or `\e…` instead of breaking the table or reaching the terminal.
struct Table {
    struct Column {
        enum Alignment { case left, right }
        var title: String
        var alignment: Alignment

        init(_ title: String, alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    var columns: [Column]
    var rows: [[String]]

    /// The header and the rows, columns separated by two spaces, no trailing spaces.
    func rendered() -> String {
        let lines = ([columns.map(\.title)] + rows).map { cells in
            cells.map { TerminalText.escaped($0, as: .line) }
        }
        let widths = columns.indices.map { column in lines.map { Self.displayWidth($0[column]) }.max() ?? 0 }
        return lines.map { cells in
            var line = ""
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - Self.displayWidth(cell))
                if column > 0 { line += "  " }
                line += columns[column].alignment == .left ? cell + padding : padding + cell
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The number of terminal cells `text` takes.
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    private static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.isASCII { return first.value < 0x20 ? 0 : 1 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value)
            || character.unicodeScalars.contains(where: { $0.value == 0xFE0F })
        {
            return 2
        }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (UAX #11).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
