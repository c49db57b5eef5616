import Foundation

/// A title as compared by people: case, accents, width and runs of spaces ignored, so
/// "AMÉLIE", "Amélie" and " amelie " are the same movie.
struct TitleKey: Hashable, Sendable, CustomStringConvertible {
    let description: String

    init(_ title: String) {
        description = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
