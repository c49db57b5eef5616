import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation
import LibraryKit

/// The options `courier locations` and `courier catalog` share: where the service is, which
/// page, and the output format.
struct LibrarySearchOptions: ParsableArguments {
    @Option(help: "The library service's address.")
    var service = "http://127.0.0.1:8080"

    @Option(
        help: "Show at most this many results (\(NumericOption.describe(Self.limitRange))).",
        transform: NumericOption.integer(in: Self.limitRange)
    )
    var limit = 50

    @Option(
        help: "Skip this many results first (\(NumericOption.describe(Self.offsetRange))).",
        transform: NumericOption.integer(in: Self.offsetRange)
    )
    var offset = 0

    @Flag(help: "Print the results as JSON instead of a table.")
    var json = false

    @OptionGroup var security: SecurityOptions

    /// `--limit`: what the service accepts.
    static let limitRange = 0...LibraryService.maximumLimit

    /// `--offset`: up to a billion.
    static let offsetRange = 0...1_000_000_000

    func validate() throws {
        _ = try serviceURL()
    }

    func serviceURL() throws -> URL {
        try ServiceURL.parse(service, example: "http://127.0.0.1:8080")
    }

    /// Runs `search` against the service, then prints the page as a table or JSON; says so when
    /// nothing matched (exit status 7) and how to reach the next page when there is one.
    func run<Item: Encodable & Sendable>(
        nothingFound: String,
        columns: [Table.Column],
        row: (Item) -> [String],
        search endpoint: Endpoint<Page<Item>>
    ) async throws {
        let url = try serviceURL()
        let page: Page<Item>
        do {
            page = try await security.withTransport { transport in
                let configuration = HTTPClient.Configuration.library(service: url, securityPolicy: security.policy)
                return try await HTTPClient(transport: transport, configuration: configuration).send(endpoint)
            }
        } catch let error as RequestError {
            throw Self.failure(error, service: url)
        }
        if json {
            try Terminal.output(json: page.items)
        } else if !page.items.isEmpty {
            Terminal.output(Table(columns: columns, rows: page.items.map(row)).rendered())
        }
        guard page.total > 0 else { throw CommandFailure(nothingFound, status: .nothingFound) }
        if page.items.isEmpty {
            Terminal.error("No results from \(offset + 1) on: there are \(page.total). Lower --offset.")
        } else if page.hasMore || page.offset > 0 {
            let last = page.offset + page.items.count
            let next = page.hasMore ? " Next page: --offset \(last)." : ""
            Terminal.error("Results \(page.offset + 1)–\(last) of \(page.total).\(next)")
        }
    }

    /// The engine's failure, with a hint when nothing answers at the service's address.
    static func failure(_ error: RequestError, service: URL) -> CommandFailure {
        var failure = CommandFailure(error)
        switch error.transportFailure?.kind {
        case .connectionRefused, .hostNotFound, .timedOut:
            failure.message += " Is the library service running? Start it with 'courier serve', or pass --service URL."
        default:
            break
        }
        return failure
    }
}

/// `courier locations <country>`: libraries by country.
struct Locations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locations",
        abstract: "Find libraries in countries whose names start with the text given.",
        discussion: """
            Case and accents are ignored: 'cote' finds Côte d'Ivoire. With no country, lists all.

            Examples:
              courier locations France
              courier locations un --json
              courier locations de --service https://library.example:8443 --ca-cert library-ca.pem
              courier locations de --service http://library.example:8080 --allow-http library.example
            """
    )

    @Argument(help: "The start of a country's name, in English.")
    var country = ""

    @OptionGroup var options: LibrarySearchOptions

    func run() async throws {
        try await options.run(
            nothingFound: country.isEmpty
                ? "The service has no libraries."
                : "No libraries in a country starting with '\(country)'. Try fewer letters, or no country to list all.",
            columns: [.init(""), .init("ADDRESS"), .init("CITY"), .init("COUNTRY"), .init("HOURS")],
            row: { [$0.emoji, $0.streetAddress, $0.city, $0.country, $0.hours] },
            search: LibraryService.locations(country: country, limit: options.limit, offset: options.offset)
        )
    }
}

/// `courier catalog <prefix>`: books by title.
struct Catalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Find books whose titles start with the text given.",
        discussion: """
            Case and accents are ignored and titles match from their first letter: 'l'etr' \
            finds L'Étranger, 'emile' finds Émile, ou De l'éducation. With no text, lists the catalog.

            Examples:
              courier catalog "the great"
              courier catalog war --json
            """
    )

    @Argument(help: "The start of a title.")
    var prefix = ""

    @OptionGroup var options: LibrarySearchOptions

    func run() async throws {
        try await options.run(
            nothingFound: prefix.isEmpty
                ? "The catalog is empty."
                : "No books with a title starting with '\(prefix)'. Try fewer letters.",
            columns: [.init("TITLE"), .init("AUTHOR"), .init("YEAR", alignment: .right)],
            row: { [$0.title, $0.author ?? "", $0.year.map(Self.year) ?? ""] },
            search: LibraryService.catalog(titlePrefix: prefix, limit: options.limit, offset: options.offset)
        )
    }

    /// "1851", or "c. 800 BC" style for years before the common era: "800 BC".
    static func year(_ year: Int) -> String {
        year < 0 ? "\(year.magnitude) BC" : String(year)
    }
}
