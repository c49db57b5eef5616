/// The country and language a store search is made for, read from a person's locale as the
/// chapter's app reads `Locale.current`: `fr_FR.UTF-8` searches the French store.
///
/// ```swift
/// let locale = StoreLocale.fromEnvironment(ProcessInfo.processInfo.environment)
/// let search = ITunesStore.search(term: "king", country: locale.country, language: locale.language)
/// ```
///
/// The Search API knows two languages, `en_us` and `ja_jp`: a locale in Japanese asks for
/// `ja_jp`, one in English for `en_us`, any other for the store's default (`nil`). A locale
/// without a region (`C`, `POSIX`, `en`) names no country, and the store uses its default.
public struct StoreLocale: Sendable, Hashable {
    /// A two-letter country code, lowercased (`fr`), or `nil` for the store's default.
    public var country: String?
    /// `en_us` or `ja_jp`, or `nil` for the store's default.
    public var language: String?

    /// The languages the Search API's `lang` accepts.
    public static let languages = ["en_us", "ja_jp"]

    /// A locale of `country` and `language`, taken as given.
    public init(country: String? = nil, language: String? = nil) {
        self.country = country
        self.language = language
    }

    /// The locale a POSIX locale name (`fr_FR.UTF-8`, `ja_JP@euro`, `C`) or a BCP 47 language
    /// tag (`en-GB`, `zh-Hant-TW`, a browser's `navigator.language`) names. Anything else,
    /// or a name longer than 100 bytes, names neither country nor language.
    public init(identifier: String) {
        self.init()
        guard identifier.utf8.count <= 100 else { return }
        let name = identifier.prefix { $0 != "." && $0 != "@" }
        let parts = name.split(omittingEmptySubsequences: false) { $0 == "_" || $0 == "-" }
        guard let first = parts.first, Self.isLetters(first, count: 2...3) else { return }
        switch first.lowercased() {
        case "en": language = "en_us"
        case "ja": language = "ja_jp"
        default: language = nil
        }
        // The region follows the language and an optional four-letter script.
        let rest = parts.dropFirst().drop { Self.isLetters($0, count: 4...4) }
        if let region = rest.first, Self.isLetters(region, count: 2...2) { country = region.lowercased() }
    }

    /// The locale of a process with `environment`, as `setlocale` picks it for messages:
    /// `LC_ALL`, else `LC_MESSAGES`, else `LANG` (the first that is set and not empty).
    public static func fromEnvironment(_ environment: [String: String]) -> StoreLocale {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return StoreLocale(identifier: value) }
        }
        return StoreLocale()
    }

    /// Whether `text` is `count` ASCII letters.
    private static func isLetters(_ text: Substring, count: ClosedRange<Int>) -> Bool {
        count.contains(text.utf8.count)
            && text.utf8.allSatisfy { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
    }
}
