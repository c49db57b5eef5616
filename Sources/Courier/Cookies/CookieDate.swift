import Foundation

/// A cookie's `Expires` date, read by the lenient algorithm of RFC 6265bis §5.1.1, which
/// takes every form servers send (`Wed, 09 Jun 2021 10:18:14 GMT`, `Wednesday, 09-Jun-21
/// 10:18:14 GMT`, `Wed Jun 9 10:18:14 2021`): a time, a day, a month and a year, found among
/// the tokens in any order.
enum CookieDate {
    /// The date in `text`, or `nil` when it has no valid time, day, month and year.
    static func parse(_ text: some StringProtocol) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in Substring(text).utf8.split(whereSeparator: isDelimiter) {
            if time == nil, let found = Self.time(in: token) {
                time = found
            } else if day == nil, let found = Self.digits(in: token, count: 1...2) {
                day = found
            } else if month == nil, let found = Self.month(in: token) {
                month = found
            } else if year == nil, let found = Self.digits(in: token, count: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59, day >= 1,
            day <= CivilDate.days(inMonth: month, year: year)
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The number the token opens with when it is `count` digits followed by nothing or a
    /// non-digit (then anything).
    private static func digits(in token: Substring.UTF8View.SubSequence, count: ClosedRange<Int>) -> Int? {
        let run = token.prefix(while: isDigit)
        guard count.contains(run.count) else { return nil }
        return run.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT ( non-digit *OCTET )`.
    private static func time(in token: Substring.UTF8View.SubSequence) -> (hour: Int, minute: Int, second: Int)? {
        var rest = token[...]
        var parts: [Int] = []
        for index in 0..<3 {
            let run = rest.prefix(while: isDigit)
            guard (1...2).contains(run.count) else { return nil }
            parts.append(run.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(run.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (parts[0], parts[1], parts[2])
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// 1–12 for a token that opens with a month's first three letters, in any case.
    private static func month(in token: Substring.UTF8View.SubSequence) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

}
