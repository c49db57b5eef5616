import Favorites
import Logging

/// Rates favourites added on the page in the background, a few at a time, for as long as the
/// app runs: ``run()`` owns the lookups, and ending it cancels them (a cancelled lookup leaves
/// the rating pending for the next refresh).
struct RatingQueue: Sendable {
    private let updater: RatingUpdater
    private let movies: AsyncStream<Int64>
    private let input: AsyncStream<Int64>.Continuation
    private let logger: Logger
    /// Lookups in flight at once.
    static let width = 4

    init(updater: RatingUpdater, logger: Logger) {
        self.updater = updater
        self.logger = logger
        // Bounded: a page cannot queue more than this many lookups; further ones stay pending
        // until a refresh.
        (movies, input) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingOldest(1024))
    }

    /// Asks for the movie with row id `movieID` to be rated.
    func rate(_ movieID: Int64) {
        input.yield(movieID)
    }

    /// Rates queued movies until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await movieID in movies {
                if running == Self.width {
                    await group.next()
                    running -= 1
                }
                running += 1
                group.addTask { [updater, logger] in
                    do throws(FavoritesError) {
                        _ = try await updater.rate(movieID)
                    } catch {
                        logger.warning("Rating movie \(movieID) failed: \(error.description)")
                    }
                }
            }
            group.cancelAll()
        }
    }

    /// Ends ``run()`` once the queued movies are taken.
    func finish() {
        input.finish()
    }
}
