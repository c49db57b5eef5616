import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Feeds
import Foundation
import HTTPTypes
import Logging

/// `courier feed <url|file>`: a feed's entries as they are parsed, as a list, JSON or JSON Lines.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Read an Atom, RSS or JSON Feed from a URL or a file and list its entries as they arrive.",
        discussion: """
            Prints date, title and link per entry, in the feed's order, each as soon as it is parsed; \
            --json prints every field of the feed and its entries as one JSON document (the entries first, \
            then the feed's own fields), --json-lines one entry per line. --limit N stops reading after N \
            entries. A feed that is not well-formed XML is read leniently and says so.

            Examples:
              courier feed https://www.swift.org/atom.xml --limit 5
              courier feed saved.xml --json --base-url https://example.com/feed.xml
              courier feed https://example.com/feed.xml --cache ~/.cache/courier/feeds   # revalidates
            """
    )

    @Argument(help: "An http(s) URL or a file path.")
    var source: String

    @Flag(help: "Print the feed and its entries as one JSON document.")
    var json = false

    @Flag(name: .customLong("json-lines"), help: "Print each entry as one line of JSON.")
    var jsonLines = false

    @Option(
        help:
            "Stop after this many entries (\(NumericOption.describe(Self.limitRange))); fields after them are not read.",
        transform: NumericOption.integer(in: Self.limitRange)
    )
    var limit: Int?

    @Option(name: .customLong("base-url"), help: "The document's URL, for relative links (a file's default: none).")
    var baseURL: String?

    @Option(name: .customLong("content-type"), help: "The Content-Type the document came with, for its charset.")
    var contentType: String?

    @Option(
        help: """
            Keep the feed in this HTTP cache directory: the next run sends its ETag and \
            Last-Modified and reads it from the cache when the server answers 304 (the feed is then \
            read whole, not as it arrives).
            """
    )
    var cache: String?

    @OptionGroup var security: SecurityOptions

    /// The largest feed read whole with `--cache`.
    static let maximumCachedFeed = 64 << 20

    /// `--limit`: 0 (the feed's fields without entries) to a million.
    static let limitRange = 0...1_000_000

    func validate() throws {
        if json, jsonLines { throw ValidationError("Choose one of --json, --json-lines.") }
        if cache != nil {
            guard let url = URL(string: source), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme)
            else { throw ValidationError("--cache keeps feeds read from an http(s) URL, not from a file.") }
        }
    }

    func run() async throws {
        let givenBase = baseURL.flatMap(URL.init(string:))
        let parser = FeedParser()
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) {
            if let cache { return try await readThroughCache(url, directory: cache, base: givenBase, parser: parser) }
            try await security.withTransport { transport in
                let client = HTTPClient(transport: transport, configuration: .init(securityPolicy: security.policy))
                let response: StreamedResponse
                do throws(RequestError) {
                    response = try await client.stream(
                        Endpoint<Data>(url: url, headers: [.accept: Self.accept]),
                        idleTimeout: .seconds(30)
                    )
                } catch {
                    throw CommandFailure(error)
                }
                let type = contentType ?? response.head.headerFields[.contentType]
                let base = givenBase ?? URL(string: response.url)
                try await show(parser.entries(in: response.body, baseURL: base, contentType: type))
            }
            return
        }
        guard let handle = FileHandle(forReadingAtPath: source) else {
            throw CommandFailure("Cannot read \(source): give a feed's URL or the path of a file.", status: .usage)
        }
        defer { try? handle.close() }
        try await show(parser.entries(in: handle, baseURL: givenBase, contentType: contentType))
    }

    /// `--cache`: the feed fetched through an HTTP cache on disk (revalidated with its
    /// validators), then read whole.
    private func readThroughCache(_ url: URL, directory: String, base: URL?, parser: FeedParser) async throws {
        let httpCache: HTTPCache
        do {
            let logger = Terminal.logger(label: "courier.cache", level: .warning)
            httpCache = try HTTPCache(directory: URL(fileURLWithPath: directory, isDirectory: true), logger: logger)
        } catch {
            throw CommandFailure(error.description, status: .usage)
        }
        try await security.withTransport { transport in
            let client = HTTPClient(
                transport: transport,
                configuration: .init(
                    securityPolicy: security.policy,
                    timeout: .seconds(300),
                    maxResponseSize: Self.maximumCachedFeed,
                    cache: httpCache
                )
            )
            let response: DecodedResponse<Data>
            do throws(RequestError) {
                // A feed reader asks each time: the stored feed is used only once the server
                // says it has not changed (`no-cache`).
                let headers: HTTPFields = [.accept: Self.accept, .cacheControl: "no-cache"]
                response = try await client.response(for: Endpoint<Data>(url: url, headers: headers))
            } catch {
                await httpCache.waitForRevalidations()
                throw CommandFailure(error)
            }
            await httpCache.waitForRevalidations()
            let type = contentType ?? response.head.headerFields[.contentType]
            let body = response.value
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(body)
                continuation.finish()
            }
            try await show(parser.entries(in: chunks, baseURL: base ?? URL(string: response.url), contentType: type))
        }
    }

    private static let accept =
        "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8"

    /// Prints each entry as it is parsed, up to `--limit`; output is written whenever the parser
    /// would wait for more input.
    private func show<Chunks: AsyncSequence>(_ entries: FeedEntries<Chunks>) async throws {
        var iterator = entries.makeAsyncIterator()
        var output = FeedOutput(mode: json ? .json : jsonLines ? .jsonLines : .list, limitedToNone: limit == 0)
        do {
            if limit == 0 {
                _ = try await iterator.next()  // the fields before the first entry
            } else {
                var count = 0
                while count < limit ?? .max, let entry = try await iterator.next() {
                    output.entry(entry, of: iterator.feed)
                    count += 1
                    if iterator.readyCount == 0 { output.flush() }
                }
            }
        } catch {
            // What was printed stays a whole document: `--json` ends with the error in it.
            let failure: CommandFailure =
                switch error {
                case let error as FeedError:
                    CommandFailure("\(source) cannot be read as a feed: \(error.message)", status: .invalidResponse)
                case let error as RequestError: CommandFailure(error)
                default: CommandFailure("Cannot read \(source): \(error.localizedDescription).", status: .usage)
                }
            output.finish(iterator.feed, error: failure.message)
            throw failure
        }
        output.finish(iterator.feed)
    }
}
