public import LibraryKit

/// Large made-up data sets for load tests and benchmarks: the same seed gives the same data
/// on every machine.
///
/// Titles are built from word lists that include accented words ("Étude", "Señor", "Øresund"),
/// so folding is exercised; about one title in four starts with "The ".
///
/// ```swift
/// let data = LibraryData(locations: SyntheticData.locations(count: 1_000), books: SyntheticData.books(count: 1_000_000))
/// ```
public enum SyntheticData {
    /// `count` books with generated titles, authors and years.
    public static func books(count: Int, seed: UInt64 = 1) -> [Book] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let title =
                random.pick(openings) + " " + random.pick(adjectives) + " " + random.pick(nouns)
                + (random.next() % 3 == 0 ? " of " + random.pick(places) : "") + " \(index % 97 + 1)"
            let author = random.pick(firstNames) + " " + random.pick(lastNames)
            return Book(title: title, author: author, year: 1500 + Int(random.next() % 525))
        }
    }

    /// `count` locations in the countries of the word list, with generated streets.
    public static func locations(count: Int, seed: UInt64 = 2) -> [Location] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let (country, emoji) = countries[Int(random.next() % UInt64(countries.count))]
            return Location(
                streetAddress: "\(index % 400 + 1) \(random.pick(lastNames)) Street",
                city: random.pick(places),
                country: country,
                emoji: emoji,
                hours: "\(8 + random.next() % 3)am–\(5 + random.next() % 5)pm"
            )
        }
    }

    private static let openings = ["The", "A", "The", "Our", "The", "Une", "Das", "El", "La", "Il", "The", "Ó", "Über"]
    private static let adjectives = [
        "Silent", "Crimson", "Forgotten", "Étrange", "Golden", "Last", "Distant", "Señorial", "Bright", "Hidden",
        "Broken",
        "Wandering", "Öde", "Quiet", "Northern", "Little", "Great", "Dark", "Curious", "Ancient",
    ]
    private static let nouns = [
        "River", "Garden", "Étude", "House", "Voyage", "Island", "Letter", "Winter", "Kingdom", "Harbour", "Straße",
        "Mirror", "Orchard", "Lighthouse", "Season", "Journey", "Château", "Forest", "Song", "Promise",
    ]
    private static let places = [
        "Lisbon", "Kraków", "Øresund", "Montréal", "Kyoto", "Bogotá", "Reykjavík", "Dublin", "Zürich", "Valparaíso",
        "Istanbul", "Accra", "Hà Nội", "Tromsø", "Córdoba", "Edinburgh",
    ]
    private static let firstNames = [
        "Ada", "José", "Ingrid", "Chidi", "Mei", "François", "Olga", "Søren", "Aarav", "Lucía", "Tomás", "Zoë",
    ]
    private static let lastNames = [
        "Okafor", "García", "Nakamura", "Ødegaard", "Dubois", "Kowalski", "Haddad", "Brontë", "Novák", "Silva",
        "Müller", "Eliot",
    ]
    private static let countries: [(String, String)] = [
        ("France", "🇫🇷"), ("Côte d'Ivoire", "🇨🇮"), ("Germany", "🇩🇪"), ("Japan", "🇯🇵"), ("Brazil", "🇧🇷"),
        ("Türkiye", "🇹🇷"), ("Canada", "🇨🇦"), ("Kenya", "🇰🇪"), ("Norway", "🇳🇴"), ("Peru", "🇵🇪"),
        ("United States", "🇺🇸"), ("United Kingdom", "🇬🇧"),
    ]
}

/// A small, fast, seeded generator (SplitMix64): reproducible where `SystemRandomNumberGenerator` is not.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick(_ words: [String]) -> String {
        words[Int(next() % UInt64(words.count))]
    }
}
