import CourierTestTraits
import Foundation
import Testing

@testable import Courier

/// HTTP-dates as the parsing table of the Caching responses article says: the three forms, the leniency the
/// browsers share, and what is not a date.
@Suite(.loadLimited)
struct HTTPDateTests {
    /// 1994-11-06 08:49:37 UTC, RFC 9110's example.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
        "Sun Nov  6 08:49:37 1994",  // asctime
        "sun, 06 nov 1994 08:49:37 gmt",  // any case
        "SUN, 06 NOV 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC",  // UTC for GMT
        "Sun 06 Nov 1994 08:49:37 GMT",  // no comma
        "06 Nov 1994 08:49:37 GMT",  // no weekday
        "Sun,  06   Nov 1994  08:49:37 GMT",  // several spaces
        "Sun, 06-Nov-1994 08:49:37 GMT",  // dashes with four digits
        "Sun, 6 Nov 1994 8:49:37 GMT",  // one-digit day and hour
        "Sun, 06 November 1994 08:49:37 GMT",  // the month's full name
        "Sun, 06 Nov 1994 08:49:37 AEST",  // another zone's name counts as GMT
        "Sun, 06 Nov 1994 09:49:37 +0100",  // a numeric zone is applied
        "Sun, 06 Nov 1994 03:49:37 -0500",
        "Sun, 06 Nov 1994 08:49:60 GMT",  // a leap second counts as 59
    ])
    func acceptedForms(value: String) {
        let expected = value.contains(":60") ? Self.example.addingTimeInterval(22) : Self.example
        #expect(HTTPDate.parse(value, currentYear: 2026) == expected)
    }

    @Test(arguments: [
        "0", "-1", "", "garbage", "Sun, 06 Nov 1994", "Sun, 06 Nov 08:49:37 GMT", "Sun, Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08.49.37 GMT",  // a time with dots
        "Sun, 31 Nov 1994 08:49:37 GMT",  // a day November does not have
        "Sun, 29 Feb 1900 08:49:37 GMT",  // 1900 was not a leap year
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37:01 GMT",
        "Sun, 06 Nov 1994 1994 08:49:37 GMT",  // a part twice
        "Sun, 06 Nov Dec 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 08:49:37 GMT",
        "Sun, 06 Nov 99999 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 +9999", "Sun, 06 Nov 1994 08:49:37 GMT+1", "Sun, 06 Nov 1994 08:49:37 +0100 -0500",
        "Sun, ٠٦ Nov 1994 08:49:37 GMT",  // digits of another script
        String(repeating: "Sun, 06 Nov 1994 08:49:37 GMT ", count: 3),  // longer than any date
    ])
    func notDates(value: String) {
        #expect(HTTPDate.parse(value, currentYear: 2026) == nil, "\(value)")
    }

    /// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is in the past century, and
    /// one 50 years or more behind is in the next.
    @Test(arguments: [
        (2026, "50", 2050), (2026, "76", 2076), (2026, "77", 1977), (2026, "94", 1994), (2026, "00", 2000),
        (2080, "10", 2110), (2080, "30", 2130), (2080, "31", 2031), (2080, "99", 2099),
    ])
    func twoDigitYearsAreTheNearestNotTooFarAhead(currentYear: Int, digits: String, year: Int) throws {
        let value = "Sunday, 06-Nov-\(digits) 08:49:37 GMT"
        let date = try #require(HTTPDate.parse(value, currentYear: currentYear))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        #expect(calendar.component(.year, from: date) == year)
    }

    @Test func datesAcrossTheCalendarMatchFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // Every 97 days and 7 hours from 1601 to 9999, leap days among them.
        var date = try #require(calendar.date(from: DateComponents(year: 1601, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 9999, month: 12, day: 31)))
        var checked = 0
        var wrong: [String] = []
        while date < end {
            let text = formatter.string(from: date)
            if HTTPDate.parse(text) != date { wrong.append(text) }
            date.addTimeInterval(97 * 86_400 + 7 * 3600)
            checked += 1
        }
        #expect(checked > 30_000)
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}
