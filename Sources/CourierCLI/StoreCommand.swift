import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierImages
import Foundation
import Logging
import StoreSearch

/// `courier store <term>`: the iTunes store, searched and shown as a table or JSON, with the
/// artwork saved on request.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Search the iTunes store: songs, apps, e-books, podcasts, films, audiobooks.",
        discussion: """
            The term is sent exactly as typed ('AT&T', 'C++', '東京'). Results are sorted by name; \
            items the store sends without a name are skipped and counted. With --artwork, the \
            artwork of every result is saved (a few downloads at a time) and kept in an HTTP \
            cache, so the next run only revalidates it.

            Examples:
              courier store "stephen king" --category ebook
              courier store beatles --category music --country gb --limit 10 --json
              courier store "haruki murakami" --country jp --language ja_jp
              courier store "the shining" --artwork covers --size large
              courier replay Examples/store-king.json --port 18700 &
              courier store king --service http://127.0.0.1:18700 --no-locale --artwork /tmp/covers

            \(ExitStatus.help)
            """
    )

    @Argument(help: "What to search for.")
    var term: String

    @Option(
        help: "One of: \(StoreCategory.allCases.map(\.rawValue).joined(separator: ", ")).",
        transform: { try StoreCommand.choice($0, StoreCategory.self, option: "--category") }
    )
    var category = StoreCategory.all

    @Option(
        help:
            "The store's two-letter country code, such as us, gb, jp (default: the locale's, from LC_ALL, LC_MESSAGES or LANG)."
    )
    var country: String?

    @Option(
        help:
            "The language of the answers: \(StoreLocale.languages.joined(separator: " or ")) (default: the locale's, when it is one of them)."
    )
    var language: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Search in the locale's country and language unless --country or --language say otherwise (--no-locale: the store's defaults, as a recording made without them asks)."
    )
    var locale = true

    @Option(
        help: "At most this many results (\(NumericOption.describe(Self.limitRange))).",
        transform: NumericOption.integer(in: Self.limitRange)
    )
    var limit = 50

    @Option(help: "The store's address, for a stand-in or a recording served by courier replay.")
    var service = ITunesStore.defaultBaseURL.absoluteString

    @Flag(help: "Print the results as JSON instead of a table.")
    var json = false

    @Option(help: "Save every result's artwork in this directory.")
    var artwork: String?

    @Option(
        help: "With --artwork: small or large.",
        transform: { try StoreCommand.choice($0, ArtworkSaver.Size.self, option: "--size") }
    )
    var size = ArtworkSaver.Size.small

    @Option(
        help: "The HTTP cache for artwork (default: $XDG_CACHE_HOME/courier/artwork, else ~/.cache/courier/artwork)."
    )
    var cache: String?

    @Option(
        help: "Give up on the search after this many seconds (\(NumericOption.describe(NumericOption.timeouts))).",
        transform: NumericOption.seconds(in: NumericOption.timeouts)
    )
    var timeout: Double = 15

    @OptionGroup var recording: RecordOption

    @OptionGroup var security: SecurityOptions

    /// `--limit`: what the store accepts.
    static let limitRange = 1...ITunesStore.maximumLimit

    func validate() throws {
        guard !term.isEmpty else { throw ValidationError("Give a term to search for.") }
        if let country, country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("--country '\(country)' is not a two-letter country code such as us or jp.")
        }
        if let language, !StoreLocale.languages.contains(language.lowercased()) {
            throw ValidationError(
                "--language '\(language)' is not one the store knows: \(StoreLocale.languages.joined(separator: " or "))."
            )
        }
        _ = try ServiceURL.parse(service, example: "https://itunes.apple.com")
    }

    /// `--country` and `--language`, else the locale's (unless `--no-locale`).
    var storeLocale: StoreLocale {
        let fromEnvironment = locale ? StoreLocale.fromEnvironment(CommandContext.environment) : StoreLocale()
        return StoreLocale(
            country: country?.lowercased() ?? fromEnvironment.country,
            language: language?.lowercased() ?? fromEnvironment.language
        )
    }

    func run() async throws {
        let baseURL = try ServiceURL.parse(service, example: "https://itunes.apple.com")
        let recorder = try recording.makeRecorder()
        let middleware: [any Middleware] = recorder.map { [$0] } ?? []
        let cacheDirectory = artwork == nil ? nil : try Self.cacheDirectory(cache)
        try await recording.recording(recorder) {
            try await security.withTransport { transport in
                let store = HTTPClient(
                    transport: transport,
                    configuration: .iTunesStore(
                        baseURL: baseURL,
                        securityPolicy: security.policy,
                        timeout: NumericOption.duration(seconds: timeout),
                        middleware: middleware
                    )
                )
                let found: SearchResults
                let locale = storeLocale
                do throws(RequestError) {
                    found = try await store.send(
                        ITunesStore.search(
                            term: term,
                            category: category,
                            country: locale.country,
                            language: locale.language,
                            limit: limit
                        )
                    )
                } catch {
                    if let limit = StoreRateLimit(error) {
                        let wait = limit.retryAfter.map { " in \($0.roundedUpSeconds) s" } ?? " in a minute"
                        throw CommandFailure(
                            "The store is refusing searches for now (\(limit.status): it answers about 20 a minute); try again\(wait).",
                            status: .network
                        )
                    }
                    throw CommandFailure(error)
                }
                try show(found)
                guard let artwork, let cacheDirectory, !found.results.isEmpty else { return }
                try await saveArtwork(
                    found.results,
                    from: baseURL,
                    to: URL(fileURLWithPath: artwork, isDirectory: true),
                    transport: transport,
                    cacheDirectory: cacheDirectory,
                    middleware: middleware
                )
            }
        }
    }

    /// The case of `Choice` named `text`, or a usage error listing the choices.
    static func choice<Choice: CaseIterable & RawRepresentable<String>>(
        _ text: String,
        _ type: Choice.Type,
        option: String
    ) throws -> Choice {
        guard let choice = Choice(rawValue: text.lowercased()) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("\(option) '\(text)' is not one of: \(names).")
        }
        return choice
    }

    // MARK: - Output

    private func show(_ found: SearchResults) throws {
        if json {
            try Terminal.output(json: found)
        } else if !found.results.isEmpty {
            let table = Table(
                columns: [
                    .init("NAME"), .init("ARTIST"), .init("TYPE"), .init("PRICE", alignment: .right), .init("GENRE"),
                ],
                rows: found.results.map { [$0.name, $0.artist ?? "Unknown", $0.type, Self.price($0), $0.genre ?? ""] }
            )
            Terminal.output(table.rendered())
        }
        if found.skipped > 0 {
            let items = found.skipped == 1 ? "1 item" : "\(found.skipped) items"
            Terminal.error("\(found.results.count) results; \(items) without a name skipped.")
        }
        guard !found.results.isEmpty else {
            let scope = category == .all ? "" : " in \(category.rawValue)"
            throw CommandFailure(
                "Nothing found for '\(term)'\(scope). Check the spelling, try another category, or a shorter term.",
                status: .nothingFound
            )
        }
    }

    /// "Free", "US$1.29" (in the person's locale), or nothing when the store gives no price.
    static func price(_ result: SearchResult) -> String {
        guard let price = result.price else { return "" }
        if price == 0 { return "Free" }
        guard let currency = result.currency else { return "\(price)" }
        return price.formatted(.currency(code: currency))
    }

    // MARK: - Artwork

    private func saveArtwork(
        _ results: [SearchResult],
        from store: URL,
        to directory: URL,
        transport: any HTTPTransport,
        cacheDirectory: URL,
        middleware: [any Middleware]
    ) async throws {
        let pipeline: ImagePipeline
        let cache: HTTPCache
        do {
            let logger = Terminal.logger(label: "courier.cache", level: .warning)
            cache = try HTTPCache(memoryCapacity: 0, directory: cacheDirectory, logger: logger)
            let client = HTTPClient(
                transport: transport,
                configuration: .init(securityPolicy: security.policy, middleware: middleware, cache: cache)
            )
            pipeline = ImagePipeline(client: client)
        } catch {
            throw CommandFailure(error.description, status: .usage)
        }
        let bar = ProgressBar()
        let summary: ArtworkSaver.Summary
        do {
            summary = try await ArtworkSaver(pipeline: pipeline, store: store).save(results, size: size, to: directory)
            {
                done,
                total in
                bar.update(done: done, of: total)
            }
        } catch {
            bar.finish()
            await cache.waitForRevalidations()
            throw CommandFailure(error.description, status: .usage)
        }
        bar.finish()
        // Revalidations of stale artwork (stale-while-revalidate) end before the transport does.
        await cache.waitForRevalidations()
        var report = "Artwork in \(directory.path): \(summary.downloaded) downloaded, \(summary.cached) cached, "
        report += "\(summary.failures.count) failed"
        report += summary.withoutArtwork > 0 ? ", \(summary.withoutArtwork) without artwork." : "."
        Terminal.error(report)
        for failure in summary.failures.prefix(5) { Terminal.error("  \(failure.name): \(failure.reason)") }
        if summary.failures.count > 5 { Terminal.error("  … and \(summary.failures.count - 5) more.") }
        if !summary.failures.isEmpty, summary.files.isEmpty {
            throw CommandFailure("No artwork could be saved.", status: .network)
        }
    }

    /// `--cache`, else `$XDG_CACHE_HOME/courier/artwork`, else `$HOME/.cache/courier/artwork`.
    static func cacheDirectory(_ option: String?) throws -> URL {
        if let option { return URL(fileURLWithPath: option, isDirectory: true) }
        let environment = CommandContext.environment
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("courier/artwork")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/courier/artwork")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/courier/artwork")
    }
}
