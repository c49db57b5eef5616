import ArgumentParser
import Courier
import Favorites
import Foundation

/// `courier movies refresh`: completes pending ratings and renews stale ones.
struct MoviesRefresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Look up pending ratings and renew stale ones, a few at a time, with a progress bar.",
        discussion: """
            Each rating is committed as it arrives: an interrupted refresh keeps what it fetched, \
            and the next one completes the rest. Movies already matched are refreshed by their \
            TMDB id; the others are searched by title.
            """
    )

    @Option(
        help: "Renew ratings older than this: a number with s, m, h or d (7d, 12h, 0 for all; at most 3650d).",
        transform: NumericOption.duration(upTo: 3_650 * 86_400)
    )
    var staleAfter: TimeInterval = 7 * 86_400

    @Option(
        help: "Look up at most this many movies at a time (\(NumericOption.describe(Self.concurrencyRange))).",
        transform: NumericOption.integer(in: Self.concurrencyRange)
    )
    var concurrency = 4

    @OptionGroup var storage: DatabaseOption

    @OptionGroup var tmdb: TMDBOptions

    /// `--concurrency`: one to 64 lookups at a time.
    static let concurrencyRange = 1...64

    func run() async throws {
        let store = try storage.open()
        let credentials = try tmdb.credentials()
        let bar = ProgressBar()
        let (staleAfter, concurrency) = (staleAfter, concurrency)
        let summary = try await tmdb.withClient(credentials: credentials, connections: max(8, concurrency)) { client in
            do throws(FavoritesError) {
                return try await RatingUpdater(store: store, tmdb: client).refresh(
                    staleAfter: .seconds(staleAfter),
                    concurrency: concurrency
                ) { done, total in bar.update(done: done, of: total) }
            } catch {
                bar.finish()
                throw CommandFailure(error)
            }
        }
        bar.finish()
        guard summary.total > 0 else {
            Terminal.error("Every rating is up to date.")
            return
        }
        Terminal.error(
            "Rated \(summary.rated) of \(summary.total) \(summary.total == 1 ? "movie" : "movies")"
                + (summary.failures.isEmpty ? "." : "; \(summary.failures.count) failed:")
        )
        for failure in summary.failures.prefix(5) { Terminal.error("  \(failure.title): \(failure.reason)") }
        if summary.failures.count > 5 { Terminal.error("  … and \(summary.failures.count - 5) more.") }
        guard !summary.failures.isEmpty else { return }
        if let error = summary.firstError {
            throw CommandFailure(
                "Run 'courier movies refresh' again to retry the failed ones.",
                status: ExitStatus(error)
            )
        }
        throw CommandFailure("", status: .nothingFound)
    }
}
