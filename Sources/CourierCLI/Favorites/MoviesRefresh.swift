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
        help: "Renew ratings older than this: a number with s, m, h or d (7d, 12h, 0 for all).",
        transform: { try MoviesRefresh.seconds($0) }
    )
    var staleAfter: TimeInterval = 7 * 86_400

    @Option(help: "Look up at most this many movies at a time (1 to 64).")
    var concurrency = 4

    @OptionGroup var storage: DatabaseOption

    @OptionGroup var tmdb: TMDBOptions

    func validate() throws {
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 64.") }
    }

    func run() async throws {
        let store = try storage.open()
        let credentials = try tmdb.credentials()
        let bar = ProgressBar()
        let (staleAfter, concurrency) = (staleAfter, concurrency)
        let summary = try await tmdb.withClient(credentials: credentials, connections: max(8, concurrency)) { client in
            do throws(FavoritesError) {
                return try await RatingUpdater(store: store, tmdb: client).refresh(
                    staleAfter: staleAfter,
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

    /// Seconds in `7d`, `12h`, `30m`, `45s` or a bare number of seconds.
    static func seconds(_ text: String) throws -> TimeInterval {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let unit = trimmed.last.flatMap { units[$0] }
        let number = unit == nil ? trimmed : String(trimmed.dropLast())
        guard let value = Double(number), value >= 0, value.isFinite else {
            throw ValidationError("--stale-after '\(text)' is not a duration such as 7d, 12h, 30m or 0.")
        }
        return value * (unit ?? 1)
    }
}
