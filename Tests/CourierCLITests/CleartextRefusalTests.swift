import CourierTestTraits
import Foundation
import Testing

/// Every subcommand that fetches over HTTP refuses cleartext to a host nobody allowed, and its
/// refusal suggests only options that subcommand has. The walk covers every subcommand
/// `courier --help` lists, so a new one must be placed here.
@Suite(.loadLimited)
struct CleartextRefusalTests {
    /// An address of TEST-NET-1 (RFC 5737): refused before any connection is tried.
    static let service = "http://192.0.2.1:9"

    /// How to make each fetching subcommand send a cleartext request to ``service``.
    static let fetching: [String: [String]] = [
        "get": ["\(service)/"],
        "download": ["\(service)/file", "--output", "/dev/null"],
        "upload": ["\(service)/file", #filePath],
        "feed": ["\(service)/feed.xml"],
        "ls-remote": ["\(service)/repo.git"],
        "locations": ["France", "--service", service],
        "catalog": ["the", "--service", service],
        "store": ["king", "--service", service],
        "movies top-rated": ["--service", service],
        "movies show": ["550", "--service", service],
    ]

    /// The subcommands that never refuse cleartext on the terminal, and why.
    static let notFetching: [String: String] = [
        "replay": "serves, fetches nothing",
        "serve": "serves, fetches nothing",
        "app": "reports every fetch's failure in the page",
        "library import": "talks to PostgreSQL, not HTTP",
        "library add-book": "talks to PostgreSQL, not HTTP",
        "library add-location": "talks to PostgreSQL, not HTTP",
        "library close-location": "talks to PostgreSQL, not HTTP",
        "library set-hours": "talks to PostgreSQL, not HTTP",
        "family add": "local database only",
        "family list": "local database only",
        "family remove": "local database only",
        "movies remove": "local database only",
        "movies list": "local database only",
        "movies watch": "local database only",
        "movies add": "same options and failure path as movies show; the rating is looked up after saving",
        "movies refresh": "same options and failure path as movies show",
    ]

    @Test func everySubcommandIsPlaced() async throws {
        let all = try await Self.subcommands()
        #expect(all.count > 10)
        for command in all {
            #expect(
                (Self.fetching[command] != nil) != (Self.notFetching[command] != nil),
                "'courier \(command)' must be in exactly one list of CleartextRefusalTests"
            )
        }
        #expect(Set(Self.fetching.keys).union(Self.notFetching.keys) == Set(all))
    }

    @Test(arguments: fetching.keys.sorted())
    func theRefusalSuggestsOnlyOptionsTheCommandHas(_ command: String) async throws {
        let words = command.split(separator: " ").map(String.init)
        let result = try await Courier.run(
            words + (Self.fetching[command] ?? []),
            environment: ["TMDB_API_KEY": "test-key", "TMDB_ACCESS_TOKEN": ""]
        )
        #expect(result.status != 0)
        #expect(result.stderr.contains("Refused cleartext HTTP to 192.0.2.1"), "\(command): \(result.stderr)")
        let has = Self.options(in: try await Courier.run(words + ["--help"]).stdout)
        let suggested = Self.options(in: result.stderr)
        #expect(suggested.contains("--allow-http"), "\(command): \(result.stderr)")
        for option in suggested {
            #expect(has.contains(option), "'courier \(command)' suggests \(option), which it does not have")
        }
    }

    /// Every leaf subcommand, as words after `courier`.
    static func subcommands(of prefix: [String] = []) async throws -> [String] {
        let help = try await Courier.run(prefix + ["--help"]).stdout
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [prefix.joined(separator: " ")] }
        var names: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            // A name starts two spaces in; wrapped descriptions start further in.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else {
                continue
            }
            names.append(String(name))
        }
        var leaves: [String] = []
        for name in names where name != "help" {
            leaves += try await subcommands(of: prefix + [name])
        }
        return leaves
    }

    /// The `--options` a message names.
    static func options(in message: String) -> Set<String> {
        var found = Set<String>()
        var rest = message[...]
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if !name.isEmpty { found.insert("--" + name) }
            rest = rest[range.upperBound...]
        }
        return found
    }
}
