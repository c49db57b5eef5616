public import Foundation

/// The Public Suffix List (publicsuffix.org): the names under which anyone may register a
/// domain (`com`, `co.uk`, `github.io`), for which no cookie may be set, so that one site
/// cannot set cookies for every other site under the same suffix.
///
/// ``system`` reads the list Debian's `publicsuffix` package keeps up to date
/// (`/usr/share/publicsuffix/public_suffix_list.dat`). Without that file it holds no rules, and
/// only the list's default rule applies: every top-level name (`com`, `localhost`) is a public
/// suffix.
///
/// ```swift
/// let suffixes = PublicSuffixList(rules: "com\nco.uk\n*.ck\n!www.ck")
/// print(suffixes.isPublicSuffix("co.uk"))         // true
/// print(suffixes.isPublicSuffix("example.co.uk")) // false
/// ```
public struct PublicSuffixList: Sendable {
    private var rules: Set<String> = []
    /// `*.name` rules, as `name`.
    private var wildcards: Set<String> = []
    /// `!name` rules, as `name`.
    private var exceptions: Set<String> = []

    /// Where Debian's `publicsuffix` package keeps the list.
    public static let systemPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The system's list (``systemPath``), read once; with no rules when it cannot be read.
    public static let system: PublicSuffixList =
        (try? PublicSuffixList(contentsOf: URL(fileURLWithPath: systemPath)))
        ?? PublicSuffixList(rules: "")

    /// The list in `rules`, in the list's own format: a rule a line, `//` comments, `*.` and
    /// `!` rules; names with Unicode labels are kept in their ASCII (`xn--`) form. A line that
    /// is not a name is skipped.
    public init(rules text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            // A rule ends at the first white space (the format allows comments after it).
            guard let word = line.split(whereSeparator: \.isWhitespace).first, !word.hasPrefix("//"),
                word.utf8.count <= 253
            else { continue }
            var rule = Substring(word)
            var set = \Self.rules
            if rule.hasPrefix("!") {
                rule = rule.dropFirst()
                set = \Self.exceptions
            } else if rule.hasPrefix("*.") {
                rule = rule.dropFirst(2)
                set = \Self.wildcards
            }
            let name = IDNA.asciiHost(rule.lowercased())
            // A name of ASCII letters, digits, `-` and `.` (the list's Unicode rules converted).
            guard !name.isEmpty,
                name.utf8.allSatisfy({ byte in
                    (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E
                })
            else { continue }
            self[keyPath: set].insert(name)
        }
    }

    /// The list in the file at `url` (at most 16 MiB).
    public init(contentsOf url: URL) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let data = try handle.read(upToCount: 1 << 24) ?? Data()
        self.init(rules: String(decoding: data, as: UTF8.self))
    }

    /// How many rules the list holds.
    public var count: Int { rules.count + wildcards.count + exceptions.count }

    /// Whether `domain` (lowercased ASCII, without a trailing dot) is a public suffix: the list's
    /// algorithm finds it whole as the suffix of itself.
    public func isPublicSuffix(_ domain: String) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, !labels.contains(where: \.isEmpty) else { return false }
        return publicSuffixLabelCount(of: labels) == labels.count
    }

    /// The site `domain` belongs to: its registrable domain (the public suffix and one label
    /// more: `example.co.uk` for `www.example.co.uk`), or `domain` itself when it is an IP
    /// address or has nothing above its public suffix.
    func site(of domain: String) -> String {
        guard !CookieTarget.isIPAddress(domain) else { return domain }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, !labels.contains(where: \.isEmpty) else { return domain }
        let count = publicSuffixLabelCount(of: labels) + 1
        guard count <= labels.count else { return domain }
        return labels.suffix(count).joined(separator: ".")
    }

    /// How many labels at the end of `labels` form its public suffix.
    private func publicSuffixLabelCount(of labels: [Substring]) -> Int {
        // Suffixes from the longest: an exception wins over everything, then the longest rule
        // (a wildcard counting its `*` as a label), then the default rule `*`.
        let suffixes = labels.indices.map { labels[$0...].joined(separator: ".") }
        for (index, suffix) in suffixes.enumerated() where exceptions.contains(suffix) {
            return labels.count - index - 1
        }
        for (index, suffix) in suffixes.enumerated() {
            if rules.contains(suffix) { return labels.count - index }
            if index + 1 < suffixes.count, wildcards.contains(suffixes[index + 1]) { return labels.count - index }
        }
        return 1
    }
}
