/// The favourites now and after every change; see
/// ``FavoritesStore/favoritesUpdates(of:checkingOtherProcessesEvery:)``.
///
/// Reading throws ``FavoritesError`` and nothing else. Leaving the loop early (a `break`, a
/// cancelled task) stops the observation.
public struct FavoritesUpdates: AsyncSequence, Sendable {
    /// What the sequence yields: the whole list, each time it changes.
    public typealias Element = [FavoriteMovie]
    /// What reading throws.
    public typealias Failure = FavoritesError

    private let lists: AsyncThrowingStream<[FavoriteMovie], any Error>
    private let path: String

    /// The lists `lists` yields; an error it throws that is not a ``FavoritesError`` (there is
    /// none today) reads as a database failure of the file at `path`.
    init(_ lists: AsyncThrowingStream<[FavoriteMovie], any Error>, path: String) {
        self.lists = lists
        self.path = path
    }

    /// Starts observing.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lists: lists.makeAsyncIterator(), path: path)
    }

    /// Reads the lists one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var lists: AsyncThrowingStream<[FavoriteMovie], any Error>.AsyncIterator
        let path: String

        /// The next list, or `nil` when the observation ended (its task was cancelled).
        public mutating func next() async throws(FavoritesError) -> [FavoriteMovie]? {
            try await next(isolation: nil)
        }

        /// The next list, or `nil` when the observation ended (its task was cancelled).
        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(FavoritesError) -> [FavoriteMovie]? {
            do {
                return try await lists.next(isolation: actor)
            } catch let error as FavoritesError {
                throw error
            } catch {
                throw .database(path: path, reason: "\(error)")
            }
        }
    }
}
