/// ISBN-10 and ISBN-13 check digits.
enum ISBN {
    /// Whether `text`, hyphens and spaces aside, is 10 characters whose ISBN-10 check holds
    /// (the last may be X), or 13 digits whose ISBN-13 check holds.
    static func isValid(_ text: String) -> Bool {
        let characters = text.filter { $0 != "-" && $0 != " " }
        switch characters.count {
        case 10:
            var sum = 0
            for (position, character) in characters.enumerated() {
                let value: Int
                if let digit = character.wholeNumberValue, character.isASCII {
                    value = digit
                } else if position == 9, character == "X" || character == "x" {
                    value = 10
                } else {
                    return false
                }
                sum += value * (10 - position)
            }
            return sum % 11 == 0
        case 13:
            var sum = 0
            for (position, character) in characters.enumerated() {
                guard character.isASCII, let digit = character.wholeNumberValue else { return false }
                sum += digit * (position.isMultiple(of: 2) ? 1 : 3)
            }
            return sum % 10 == 0
        default:
            return false
        }
    }
}
