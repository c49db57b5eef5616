import Foundation

/// The dates feeds carry: W3C-DTF / RFC 3339 (partial dates included) and RFC 822 / 1123
/// (two- and four-digit years, named and numeric zones), and the `asctime` form some feeds use.
enum FeedDate {
    /// The instant `text` names, or `nil` when it is not a date this reads.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingXMLSpace()
        guard !trimmed.isEmpty else { return nil }
        return iso8601(trimmed) ?? rfc822(trimmed)
    }

    // MARK: - W3C-DTF and RFC 3339

    /// `2003-12-13T18:30:02Z`, `2003-12-13T18:30:02.25+01:00`, `2003-12-13 18:30`, `2003-12`,
    /// `2003`, `20031213T183002Z`; no zone means UTC.
    static func iso8601(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        guard let year = scanner.digits(exactly: 4) else { return nil }
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        let compact = scanner.peek() != "-"
        if !scanner.isAtEnd {
            _ = scanner.skip("-")
            guard let parsedMonth = scanner.digits(exactly: 2) else { return nil }
            month = parsedMonth
            if !scanner.isAtEnd {
                if !compact { guard scanner.skip("-") else { return nil } }
                guard let parsedDay = scanner.digits(exactly: 2) else { return nil }
                day = parsedDay
            }
        }
        if !scanner.isAtEnd {
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") else { return nil }
            guard let parsedHour = scanner.digits(exactly: 2) else { return nil }
            hour = parsedHour
            _ = scanner.skip(":")
            guard let parsedMinute = scanner.digits(exactly: 2) else { return nil }
            minute = parsedMinute
            if scanner.skip(":") || scanner.peek()?.isNumber == true {
                guard let parsedSecond = scanner.digits(exactly: 2) else { return nil }
                second = parsedSecond
                if scanner.skip(".") || scanner.skip(",") { _ = scanner.digits(atMost: 12) }
            }
            scanner.skipSpaces()
            if scanner.skip("Z") || scanner.skip("z") {
                offset = 0
            } else if let sign = scanner.peek(), sign == "+" || sign == "-" {
                scanner.advance()
                guard let hours = scanner.digits(exactly: 2) else { return nil }
                _ = scanner.skip(":")
                let minutes = scanner.digits(exactly: 2) ?? 0
                offset = (hours * 60 + minutes) * 60 * (sign == "-" ? -1 : 1)
            }
        }
        scanner.skipSpaces()
        guard scanner.isAtEnd else { return nil }
        return makeDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    // MARK: - RFC 822

    /// `Sat, 13 Dec 2003 18:30:02 GMT`, `13 Dec 03 18:30 -0500`, `Sat Dec 13 18:30:02 2003`.
    static func rfc822(_ text: String) -> Date? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }.map(String.init)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        var offset: Int?
        for token in tokens {
            let lower = token.lowercased()
            if let index = months.firstIndex(where: { lower.hasPrefix($0) }), month == nil, lower.count <= 9 {
                month = index + 1
            } else if token.contains(":"), time == nil {
                let parts = token.split(separator: ":").map { Int($0) }
                guard parts.count >= 2, parts.allSatisfy({ $0 != nil }) else { return nil }
                time = (parts[0] ?? 0, parts[1] ?? 0, parts.count > 2 ? parts[2] ?? 0 : 0)
            } else if let number = Int(token), !token.hasPrefix("+"), !token.hasPrefix("-") {
                if day == nil, token.count <= 2, year == nil || month != nil {
                    day = number
                } else if year == nil {
                    year = token.count <= 2 ? number + (number < 90 ? 2000 : 1900) : number
                } else {
                    return nil
                }
            } else if let zone = zoneOffset(token), offset == nil, time != nil || year != nil {
                offset = zone
            } else if weekdays.contains(where: { lower.hasPrefix($0) }) {
                continue
            } else {
                return nil
            }
        }
        guard let day, let month, let year else { return nil }
        let (hour, minute, second) = time ?? (0, 0, 0)
        return makeDate(
            year: year,
            month: month,
            day: day,
            hour: hour,
            minute: minute,
            second: second,
            offset: offset ?? 0
        )
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let namedZones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7,
    ]

    /// Seconds east of UTC for `+0100`, `-05:00`, `GMT`, `EST`….
    private static func zoneOffset(_ token: String) -> Int? {
        if let hours = namedZones[token.lowercased()] { return hours * 3600 }
        var text = Substring(token)
        if text.lowercased().hasPrefix("gmt") || text.lowercased().hasPrefix("utc") { text = text.dropFirst(3) }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 4 || digits.count == 2, let value = Int(digits) else { return nil }
        let hours = digits.count == 4 ? value / 100 : value
        let minutes = digits.count == 4 ? value % 100 : 0
        return (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
    }

    private static func makeDate(
        year: Int,
        month: Int,
        day: Int,
        hour: Int,
        minute: Int,
        second: Int,
        offset: Int
    ) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour), (0...59).contains(minute),
            (0...61).contains(second), let utc = TimeZone(identifier: "UTC")
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let components = DateComponents(
            year: year,
            month: month,
            day: day,
            hour: hour,
            minute: minute,
            second: min(second, 59)
        )
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day || hour == 24
        else { return nil }
        return date.addingTimeInterval(TimeInterval(-offset))
    }
}

/// Reading a date string character by character.
private struct DateScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    var isAtEnd: Bool { index >= characters.count }

    func peek() -> Character? { isAtEnd ? nil : characters[index] }

    mutating func advance() { index += 1 }

    mutating func skip(_ character: Character) -> Bool {
        guard peek() == character else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while peek() == " " { index += 1 }
    }

    mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= characters.count else { return nil }
        let slice = characters[index..<(index + count)]
        guard slice.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(String(slice)) else { return nil }
        index += count
        return value
    }

    mutating func digits(atMost count: Int) -> Int? {
        var end = index
        while end < characters.count, end - index < count, characters[end].isASCII, characters[end].isNumber {
            end += 1
        }
        guard end > index else { return nil }
        defer { index = end }
        return Int(String(characters[index..<end]))
    }
}
