import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Feeds
import Foundation
import HTTPTypes

/// `courier feed <url|file>`: a feed's entries as a list, or its normalised JSON.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Read an Atom, RSS or JSON Feed from a URL or a file and list its entries.",
        discussion: """
            Prints date, title and link per entry, newest first as the feed orders them; --json prints \
            the feed as JSON (version, title, link, subtitle, updated, language, wellFormed, entries). \
            A feed that is not well-formed XML is read leniently and says so.

            Examples:
              courier feed https://www.swift.org/atom.xml --limit 5
              courier feed saved.xml --json --base-url https://example.com/feed.xml
            """
    )

    @Argument(help: "An http(s) URL or a file path.")
    var source: String

    @Flag(help: "Print the feed as JSON.")
    var json = false

    @Option(
        help: "Show at most this many entries (\(NumericOption.describe(Self.limitRange))).",
        transform: NumericOption.integer(in: Self.limitRange)
    )
    var limit: Int?

    @Option(name: .customLong("base-url"), help: "The document's URL, for relative links (a file's default: none).")
    var baseURL: String?

    @Option(name: .customLong("content-type"), help: "The Content-Type the document came with, for its charset.")
    var contentType: String?

    @OptionGroup var security: SecurityOptions

    /// `--limit`: 0 (with --json, the feed without its entries) to a million.
    static let limitRange = 0...1_000_000

    func run() async throws {
        let (data, base, type) = try await load()
        let feed: Feed
        do {
            feed = try FeedParser().parse(data, baseURL: base, contentType: type)
        } catch {
            throw CommandFailure("\(source) cannot be read as a feed: \(error.reason).", status: .invalidResponse)
        }
        let entries = limit.map { Array(feed.entries.prefix($0)) } ?? feed.entries
        if json {
            Terminal.output(json: Self.json(feed, entries: entries))
        } else {
            printList(feed, entries: entries)
        }
    }

    private func load() async throws -> (Data, URL?, String?) {
        let givenBase = baseURL.flatMap(URL.init(string:))
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) {
            do {
                let response = try await AsyncHTTPClientTransport.withTransport { transport in
                    try await HTTPClient(transport: transport, configuration: .init(securityPolicy: security.policy))
                        .response(
                            for: Endpoint<Data>(
                                url: url,
                                headers: [
                                    .accept:
                                        "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8"
                                ]
                            )
                        )
                }
                return (
                    response.value, givenBase ?? URL(string: response.url),
                    contentType ?? response.head.headerFields[.contentType]
                )
            } catch let error as RequestError {
                throw CommandFailure(error)
            }
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw CommandFailure("Cannot read \(source): give a feed's URL or the path of a file.", status: .usage)
        }
        return (data, givenBase, contentType)
    }

    private func printList(_ feed: Feed, entries: [Entry]) {
        if let title = feed.title { Terminal.output(TerminalText.escaped(title, as: .line)) }
        if !feed.isWellFormed {
            Terminal.error("courier: the feed is not well-formed (\(feed.problem ?? "")); read leniently.")
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let rows = entries.map { entry in
            [
                (entry.published ?? entry.updated).map(formatter.string) ?? "", entry.title ?? "(untitled)",
                entry.link ?? "",
            ]
        }
        guard !rows.isEmpty else {
            Terminal.error("The feed has no entries.")
            return
        }
        Terminal.output(Table(columns: [.init("DATE"), .init("TITLE"), .init("LINK")], rows: rows).rendered())
    }

    /// The feed in the conformance kit's JSON shape (extra keys allowed).
    static func json(_ feed: Feed, entries: [Entry]) -> String {
        func date(_ value: Date?) -> Any {
            guard let value else { return NSNull() }
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: value)
        }
        func text(_ value: String?) -> Any { value ?? NSNull() }
        let object: [String: Any] = [
            "version": text(feed.version),
            "title": text(feed.title),
            "link": text(feed.link),
            "subtitle": text(feed.subtitle),
            "updated": date(feed.updated),
            "language": text(feed.language),
            "wellFormed": feed.isWellFormed,
            "problem": text(feed.problem),
            "entries": entries.map { entry -> [String: Any] in
                [
                    "id": text(entry.id),
                    "title": text(entry.title),
                    "link": text(entry.link),
                    "summary": text(entry.summary),
                    "published": date(entry.published),
                    "updated": date(entry.updated),
                    "authors": entry.authors.compactMap { $0.name ?? $0.email },
                ]
            },
        ]
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            )
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
