import Feeds
import Foundation

/// What `courier feed` prints, an entry at a time: a list, one JSON document, or JSON Lines.
struct FeedOutput {
    enum Mode {
        case list, json, jsonLines
    }

    /// The width of the list's title column, in terminal cells; longer titles end in `…`.
    static let titleWidth = 60

    let mode: Mode
    /// `--limit 0`: the feed's fields only, so no entries is not news.
    let limitedToNone: Bool
    private var writer = FeedJSON()
    private var count = 0

    init(mode: Mode, limitedToNone: Bool = false) {
        self.mode = mode
        self.limitedToNone = limitedToNone
    }

    /// Adds an entry; `feed` is the feed's fields read so far (the list's title line).
    mutating func entry(_ entry: Entry, of feed: Feed) {
        defer { count += 1 }
        switch mode {
        case .list:
            if count == 0 { header(feed) }
            let date = (entry.published ?? entry.updated).flatMap(FeedJSON.iso8601).map { String($0.prefix(10)) } ?? ""
            let title = Self.fitted(TerminalText.escaped(entry.title ?? "(untitled)", as: .line))
            var line = date.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + title
            if let link = entry.link { line += "  " + TerminalText.escaped(link, as: .line) }
            while line.hasSuffix(" ") { line.removeLast() }
            writer.append(line + "\n")
        case .json:
            writer.append(count == 0 ? "{\n  \"entries\": [\n    " : ",\n    ")
            writer.entry(entry)
        case .jsonLines:
            writer.entry(entry)
            writer.append("\n")
        }
        if writer.bytes.count >= 1 << 16 { flush() }
    }

    /// Ends the output: the JSON document's feed fields (and the `error` that ended the reading,
    /// if one did), or the list's notes.
    mutating func finish(_ feed: Feed, error: String? = nil) {
        switch mode {
        case .list:
            if count == 0, let title = feed.title { writer.append(TerminalText.escaped(title, as: .line) + "\n") }
            flush()
            if count == 0, !limitedToNone, error == nil { Terminal.error("The feed has no entries.") }
        case .json:
            writer.append(count == 0 ? "{\n  \"entries\": []" : "\n  ]")
            writer.feedFields(feed, error: error)
            flush()
        case .jsonLines:
            flush()
        }
        if !feed.isWellFormed, error == nil {
            Terminal.error(
                "courier: the feed is not well-formed (\(TerminalText.escaped(feed.problem ?? "", as: .line))); read leniently."
            )
        }
    }

    mutating func flush() {
        guard !writer.bytes.isEmpty else { return }
        Terminal.write(writer.take())
    }

    private mutating func header(_ feed: Feed) {
        if let title = feed.title { writer.append(TerminalText.escaped(title, as: .line) + "\n") }
        writer.append("DATE        TITLE" + String(repeating: " ", count: Self.titleWidth - 5) + "  LINK\n")
    }

    /// `title` padded or cut to the title column's width.
    static func fitted(_ title: String) -> String {
        // ASCII takes a cell a byte: no need to measure each character.
        if title.utf8.count <= titleWidth, title.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return title + String(repeating: " ", count: titleWidth - title.utf8.count)
        }
        var width = 0
        var result = ""
        for character in title {
            let cells = Table.displayWidth(String(character))
            if width + cells > titleWidth - 1, title.count > result.count + 1 || width + cells > titleWidth {
                // Cut here unless this is the last character and it fits.
                if width + cells <= titleWidth, result.count + 1 == title.count {
                    result.append(character)
                    width += cells
                    break
                }
                result.append("…")
                width += 1
                break
            }
            result.append(character)
            width += cells
        }
        return result + String(repeating: " ", count: max(0, titleWidth - width))
    }
}
