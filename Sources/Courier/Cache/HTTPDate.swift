package import Foundation

/// HTTP-dates (RFC 9110 §5.6.7), read as browsers read them.
///
/// The three forms are accepted — IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) — with the
/// leniency Chrome, Firefox and Safari share: names in any case, the weekday or comma left out,
/// several spaces, `dd-Mon-yyyy`, one-digit hours, `UTC` for `GMT`. A numeric zone (`+0200`)
/// is applied; other words of letters (another zone's name) are ignored, so the time counts as
/// GMT. A two-digit year is the one within 50 years of this year, ahead or behind (RFC 9110).
/// Anything else — a missing part, a part twice, a day the month does not have, a time out of
/// range — is not a date: `nil`.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]
    private static let weekdays: Set<String> = [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday",
    ]

    /// The date `value` names, or `nil`.
    package static func parse(_ value: some StringProtocol) -> Date? {
        parse(value, currentYear: currentYear)
    }

    /// The date `value` names, reading two-digit years relative to `currentYear`.
    static func parse(_ value: some StringProtocol, currentYear: Int) -> Date? {
        // Bounded work: no HTTP-date is longer than this.
        guard value.utf8.count <= 64 else { return nil }
        var day: Int?
        var month: Int?
        var year: Int?
        var twoDigitYear = false
        var time: (hour: Int, minute: Int, second: Int)?
        var offsetSeconds: Int?
        for token in tokens(of: value) {
            if token.contains(":") {
                guard time == nil, let parsed = clock(token) else { return nil }
                time = parsed
            } else if let first = token.utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                let digits = token.dropFirst()
                guard digits.count == 4, digits.utf8.allSatisfy(isDigit), let hhmm = Int(digits),
                    hhmm / 100 <= 23, hhmm % 100 <= 59
                else { return nil }
                guard offsetSeconds == nil else { return nil }
                let offset = (hhmm / 100) * 3600 + (hhmm % 100) * 60
                offsetSeconds = first == UInt8(ascii: "+") ? offset : -offset
            } else if token.utf8.allSatisfy(isDigit) {
                guard let number = Int(token), token.count <= 4 else { return nil }
                if token.count >= 3 {
                    guard year == nil else { return nil }
                    year = number
                } else if day == nil {
                    day = number
                } else {
                    guard year == nil else { return nil }
                    year = number
                    twoDigitYear = true
                }
            } else {
                let name = token.lowercased()
                if let index = months.firstIndex(of: name) ?? monthNames.firstIndex(of: name) {
                    guard month == nil else { return nil }
                    month = index + 1
                } else if weekdays.contains(name) || name.utf8.allSatisfy(isLetter) {
                    continue  // a weekday, GMT, UTC or another zone's name
                } else {
                    return nil
                }
            }
        }
        guard let day, let month, var year, let time else { return nil }
        if twoDigitYear {
            year += currentYear / 100 * 100
            if year > currentYear + 50 {
                year -= 100
            } else if year <= currentYear - 50 {
                year += 100
            }
        }
        guard (1...9999).contains(year), (1...CivilDate.days(inMonth: month, year: year)).contains(day) else {
            return nil
        }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second - (offsetSeconds ?? 0)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The words of a date: split at spaces, tabs and commas, and at dashes inside a word
    /// (`06-Nov-94`); a leading sign stays with its zone offset.
    private static func tokens(of value: some StringProtocol) -> [Substring] {
        var result: [Substring] = []
        for word in Substring(value).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
            let sign = word.first == "+" || word.first == "-" ? word.prefix(1) : ""
            let parts = word.dropFirst(sign.count).split(separator: "-", omittingEmptySubsequences: false)
            if !sign.isEmpty, parts.count == 1 {
                result.append(word)
            } else {
                result.append(contentsOf: parts)
            }
        }
        return result
    }

    /// `h:mm:ss` (one or two digits each): hours to 23, minutes to 59, seconds to 60 (a leap
    /// second counts as 59).
    private static func clock(_ token: Substring) -> (hour: Int, minute: Int, second: Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3,
            parts.allSatisfy({ (1...2).contains($0.count) && $0.utf8.allSatisfy(isDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        return (hour, minute, min(second, 59))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// This year, by the clock.
    private static var currentYear: Int {
        let days = Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))
        // A year is 365.2425 days on average; a day either side of New Year does not matter here.
        return 1970 + Int((Double(days) / 365.2425).rounded(.down))
    }
}
