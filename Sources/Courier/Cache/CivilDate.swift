/// Dates of the proleptic Gregorian calendar as the date parsers need them, without
/// `Calendar`: how many days a month has, and how many days a date is from 1970-01-01. One
/// rule for HTTP dates, cookie dates and feed dates.
package enum CivilDate {
    /// The days of `month` (1–12) in `year`.
    package static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` (Howard Hinnant's days-from-civil), negative
    /// before it.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
