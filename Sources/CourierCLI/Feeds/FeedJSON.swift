import Feeds
import Foundation

/// `courier feed --json` and `--json-lines` output, written by hand on bytes: an entry at a
/// time, every field of the model, strings escaped for JSON and for the terminal (C0 and C1
/// controls, DEL and bidi controls as `\uXXXX`), dates as ISO 8601 in UTC.
struct FeedJSON {
    private(set) var bytes: [UInt8] = []

    /// One entry as a JSON object on one line (no line feed).
    mutating func entry(_ entry: Entry) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        field("id", entry.id, &first)
        field("title", entry.title, &first)
        field("link", entry.link, &first)
        field("summary", entry.summary, &first)
        field("content", entry.content, &first)
        field("content_html", entry.safeContent, &first)
        field("content_type", entry.contentType, &first)
        date("published", entry.published, &first)
        date("updated", entry.updated, &first)
        people("authors", entry.authors, &first)
        key("categories", &first)
        bytes.append(UInt8(ascii: "["))
        for (index, category) in entry.categories.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(category)
        }
        bytes.append(UInt8(ascii: "]"))
        key("enclosures", &first)
        bytes.append(UInt8(ascii: "["))
        for (index, enclosure) in entry.enclosures.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var inner = true
            bytes.append(UInt8(ascii: "{"))
            field("url", enclosure.url, &inner)
            field("type", enclosure.type, &inner)
            if let length = enclosure.length {
                key("length", &inner)
                bytes.append(contentsOf: String(length).utf8)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        field("image", entry.image, &first)
        key("media", &first)
        bytes.append(UInt8(ascii: "["))
        for (index, item) in entry.media.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var inner = true
            bytes.append(UInt8(ascii: "{"))
            field("kind", item.kind.rawValue, &inner)
            field("url", item.url, &inner)
            field("type", item.type, &inner)
            field("medium", item.medium, &inner)
            for (name, value) in [
                ("width", item.width), ("height", item.height), ("duration", item.duration),
                ("file_size", item.fileSize),
            ] {
                number(name, value, &inner)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        number("duration", entry.duration, &first)
        number("episode", entry.episode, &first)
        number("season", entry.season, &first)
        flag("explicit", entry.isExplicit, &first)
        bytes.append(UInt8(ascii: "}"))
    }

    /// The feed's own fields, as the members that end the `--json` document (each on its
    /// line, indented by two spaces, then the closing brace).
    mutating func feedFields(_ feed: Feed, error: String? = nil) {
        let separator = Array(",\n  ".utf8)
        func next(_ name: String) {
            bytes.append(contentsOf: separator)
            string(name)
            bytes.append(contentsOf: ": ".utf8)
        }
        for (name, value) in [
            ("version", feed.version), ("title", feed.title), ("link", feed.link), ("subtitle", feed.subtitle),
            ("language", feed.language),
        ] {
            next(name)
            optional(value)
        }
        next("updated")
        optional(feed.updated.flatMap(Self.iso8601))
        next("image")
        optional(feed.image)
        next("icon")
        optional(feed.icon)
        next("explicit")
        bytes.append(contentsOf: (feed.isExplicit.map { $0 ? "true" : "false" } ?? "null").utf8)
        next("authors")
        peopleArray(feed.authors)
        next("wellFormed")
        bytes.append(contentsOf: (feed.isWellFormed ? "true" : "false").utf8)
        next("problem")
        optional(feed.problem)
        if let error {
            next("error")
            string(error)
        }
        bytes.append(contentsOf: "\n}\n".utf8)
    }

    /// Takes what was written so far.
    mutating func take() -> Data {
        defer { bytes.removeAll(keepingCapacity: true) }
        return Data(bytes)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    // MARK: - Values

    private mutating func key(_ name: String, _ first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func field(_ name: String, _ value: String?, _ first: inout Bool) {
        key(name, &first)
        optional(value)
    }

    private mutating func number(_ name: String, _ value: Int?, _ first: inout Bool) {
        key(name, &first)
        bytes.append(contentsOf: (value.map { String($0) } ?? "null").utf8)
    }

    private mutating func flag(_ name: String, _ value: Bool?, _ first: inout Bool) {
        key(name, &first)
        bytes.append(contentsOf: (value.map { $0 ? "true" : "false" } ?? "null").utf8)
    }

    private mutating func date(_ name: String, _ value: Date?, _ first: inout Bool) {
        key(name, &first)
        optional(value.flatMap(Self.iso8601))
    }

    private mutating func people(_ name: String, _ people: [Person], _ first: inout Bool) {
        key(name, &first)
        peopleArray(people)
    }

    private mutating func peopleArray(_ people: [Person]) {
        bytes.append(UInt8(ascii: "["))
        for (index, person) in people.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var inner = true
            bytes.append(UInt8(ascii: "{"))
            field("name", person.name, &inner)
            field("email", person.email, &inner)
            field("uri", person.uri, &inner)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func optional(_ value: String?) {
        if let value { string(value) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// A JSON string: quotes, backslashes and controls escaped, and the characters a terminal
    /// acts on (DEL, C1 controls, bidi controls) as `\uXXXX`.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.withContiguousStorageIfAvailable({ escape($0) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { escape($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ text: UnsafeBufferPointer<UInt8>) {
        var run = 0
        var index = 0
        func flush(to end: Int) {
            if end > run { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<end])) }
        }
        while index < text.count {
            let byte = text[index]
            var escaped: UInt32?
            var length = 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                flush(to: index)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
                index += 1
                run = index
                continue
            case 0x00..<0x20, 0x7F:
                escaped = UInt32(byte)
            case 0xC2 where index + 1 < text.count && (0x80...0x9F).contains(text[index + 1]):
                escaped = UInt32(text[index + 1])
                length = 2
            case 0xE2 where index + 2 < text.count:
                let (second, third) = (text[index + 1], text[index + 2])
                if (second == 0x80 && (0xAA...0xAE).contains(third))
                    || (second == 0x81 && (0xA6...0xA9).contains(third))
                {
                    escaped = 0x2000 + UInt32(second & 0x3F) << 6 + UInt32(third & 0x3F)
                    length = 3
                }
            default:
                break
            }
            guard let scalar = escaped else {
                index += 1
                continue
            }
            flush(to: index)
            let hex = String(scalar, radix: 16)
            bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            index += length
            run = index
        }
        flush(to: text.count)
    }

    /// `2003-12-13T18:30:02Z`: the instant in UTC, whole seconds; a year past 9999 with its
    /// sign (`+10000-…`, ISO 8601's expanded form); `nil` beyond a million years.
    static func iso8601(_ date: Date) -> String? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 3e13 else { return nil }
        let seconds = Int(interval.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Days to a civil date (proleptic Gregorian), after Howard Hinnant's `civil_from_days`.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let digits = String(abs(year))
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        let yearText = year < 0 ? "-" + padded : year >= 10_000 ? "+" + padded : padded
        return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }
}
