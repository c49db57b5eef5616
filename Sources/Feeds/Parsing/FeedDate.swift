import Courier
import CourierXML
import Foundation

/// The dates feeds carry: W3C-DTF / RFC 3339 (partial dates included) and RFC 822 / 1123
/// (two- and four-digit years, named and numeric zones), and the `asctime` form some feeds use.
enum FeedDate {
    /// The instant `text` names, or `nil` when it is not a date this reads.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingXMLSpace()
        guard let first = trimmed.utf8.first else { return nil }
        // W3C-DTF starts with a four-digit year; RFC 822 with a day name or a day of the month.
        if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), let date = iso8601(trimmed) { return date }
        return rfc822(trimmed)
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
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        var offset: Int?
        for token in text.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x2C || $0 == 0x09 || $0 == 0x0A }) {
            if month == nil, token.count >= 3, token.count <= 9, let index = monthIndex(token) {
                month = index + 1
            } else if time == nil, token.contains(UInt8(ascii: ":")) {
                let parts = token.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map(number)
                guard parts.count >= 2, parts.count <= 3, let hour = parts[0], let minute = parts[1] else { return nil }
                let second: Int? = parts.count == 3 ? parts[2] : 0
                guard let second else { return nil }
                time = (hour, minute, second)
            } else if let value = number(token) {
                if day == nil, token.count <= 2, year == nil || month != nil {
                    day = value
                } else if year == nil {
                    year = token.count <= 2 ? value + (value < 90 ? 2000 : 1900) : value
                } else {
                    return nil
                }
            } else if offset == nil, time != nil || year != nil, let zone = zoneOffset(token) {
                offset = zone
            } else if token.count >= 3, isWeekday(token) {
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
        .map { Array($0.utf8) }
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { Array($0.utf8) }
    private static let namedZones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7,
    ]

    private static func lowercasePrefix(_ token: Substring.UTF8View.SubSequence, _ count: Int) -> [UInt8] {
        token.prefix(count).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    private static func monthIndex(_ token: Substring.UTF8View.SubSequence) -> Int? {
        guard token.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 == UInt8(ascii: ".") }) else {
            return nil
        }
        return months.firstIndex(of: lowercasePrefix(token, 3))
    }

    private static func isWeekday(_ token: Substring.UTF8View.SubSequence) -> Bool {
        weekdays.contains(lowercasePrefix(token, 3))
    }

    /// A run of ASCII digits (no sign) as a number.
    private static func number(_ token: some Collection<UInt8>) -> Int? {
        guard !token.isEmpty, token.count <= 9 else { return nil }
        var value = 0
        for byte in token {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Seconds east of UTC for `+0100`, `-05:00`, `GMT`, `EST`….
    private static func zoneOffset(_ token: Substring.UTF8View.SubSequence) -> Int? {
        if token.count == 3, lowercasePrefix(token, 3) == Array("gmt".utf8) { return 0 }
        let text = String(decoding: token, as: UTF8.self).lowercased()
        if let hours = namedZones[text] { return hours * 3600 }
        var rest = Substring(text)
        if rest.hasPrefix("gmt") || rest.hasPrefix("utc") { rest = rest.dropFirst(3) }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let digits = rest.dropFirst().filter { $0 != ":" }
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
        guard (1...12).contains(month), (1...CivilDate.days(inMonth: month, year: year)).contains(day),
            (0...24).contains(hour),
            (0...59).contains(minute), (0...61).contains(second)
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

}

/// Reading a date string byte by byte (dates are ASCII).
private struct DateScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { index >= bytes.count }

    func peek() -> Character? { isAtEnd ? nil : Character(Unicode.Scalar(bytes[index])) }

    mutating func advance() { index += 1 }

    mutating func skip(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, !isAtEnd, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while !isAtEnd, bytes[index] == 0x20 { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + count)] {
            guard Self.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    mutating func digits(atMost count: Int) -> Int? {
        var end = index
        var value = 0
        while end < bytes.count, end - index < count, Self.isDigit(bytes[end]) {
            value = value * 10 + Int(bytes[end] - 0x30)
            end += 1
        }
        guard end > index else { return nil }
        index = end
        return value
    }
}
