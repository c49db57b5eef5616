import Foundation

/// A title or a name as people compare them: case, accents, width and runs of spaces
/// ignored, so "AMÉLIE", "Amélie" and " amelie " are the same movie, "Zoë" and "zoe" the same
/// person.
struct MatchKey: Hashable, Sendable, CustomStringConvertible {
    let description: String

    init(_ title: String) {
        description = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
