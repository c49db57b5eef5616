import Foundation

/// Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
enum RetryAfter {
    /// The delay `value` asks for, or `nil` when it is neither form. A date in the past is zero.
    static func parse(_ value: String, now: Date) -> Duration? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.parse(value) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((interval * 1000).rounded()))
    }
}

/// HTTP-dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ value: String) -> Date? {
        // Sun, 06 Nov 1994 08:49:37 GMT | Sunday, 06-Nov-94 08:49:37 GMT | Sun Nov  6 08:49:37 1994
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" })
        var day: Int?
        var month: Int?
        var year: Int?
        var time: [Int] = []
        for part in parts.dropFirst() {
            if part.contains(":") {
                time = part.split(separator: ":").compactMap { Int($0) }
            } else if let index = months.firstIndex(of: part.lowercased()) {
                month = index + 1
            } else if let number = Int(part) {
                if day == nil, part.count <= 2, year == nil || month != nil { day = number } else { year = number }
            }
        }
        guard let day, let month, var year, time.count == 3 else { return nil }
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(
            year: year,
            month: month,
            day: day,
            hour: time[0],
            minute: time[1],
            second: time[2]
        )
        return calendar.date(from: components)
    }
}
