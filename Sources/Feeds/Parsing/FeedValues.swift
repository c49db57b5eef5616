import CourierXML

/// Values feeds give as text that are not text: podcast flags, durations, counts.
enum FeedValues {
    /// `itunes:explicit` as feedparser 6.0.14 answers its own tests: `yes`, `true` or
    /// `explicit` say explicit; `no`, `false` or `clean` say not; anything else (`YES`,
    /// ` yes `) says nothing.
    static func explicit(_ text: String) -> Bool? {
        switch text {
        case "yes", "true", "explicit": true
        case "no", "false", "clean": false
        default: nil
        }
    }

    /// `itunes:duration` in seconds: `SS`, `MM:SS` or `HH:MM:SS` (a fraction of a second is
    /// dropped; minutes and seconds after the first part must be under 60); `nil` otherwise.
    static func duration(_ text: String) -> Int? {
        let trimmed = text.trimmingXMLSpace()
        let whole = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let clock = whole.first, whole.count == 1 || whole[1].utf8.allSatisfy(ByteScan.isDigit) else {
            return nil
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0
        for (index, part) in parts.enumerated() {
            guard let value = wholeNumber(Substring(part)), index == 0 || value < 60 else { return nil }
            seconds = seconds * 60 + value
        }
        return seconds
    }

    /// A whole number of at most `maximumDigits` digits (9 by default, 18 at most), white space
    /// around it allowed.
    static func wholeNumber(_ text: some StringProtocol, maximumDigits: Int = 9) -> Int? {
        let trimmed = String(text).trimmingXMLSpace()
        guard (1...min(maximumDigits, 18)).contains(trimmed.utf8.count), trimmed.utf8.allSatisfy(ByteScan.isDigit)
        else { return nil }
        return Int(trimmed)
    }
}
