/// The favourites now and after every change; see
/// ``FavoritesStore/favoritesUpdates(of:checkingOtherProcessesEvery:)``.
///
/// Reading throws ``FavoritesError`` and nothing else. Cancelling the reading task stops the
/// observation, and so does leaving the loop early (a `break`) once nothing else holds the
/// sequence.
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
    ///
    /// - Returns: An iterator over the sequence.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lists: lists.makeAsyncIterator(), path: path)
    }

    /// Reads the lists one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var lists: AsyncThrowingStream<[FavoriteMovie], any Error>.AsyncIterator
        let path: String

        /// The next list, or `nil` when the observation ended (its task was cancelled).
        ///
        /// - Returns: The favourites, or `nil` at the end.
        /// - Throws: ``FavoritesError`` when the database fails or the member is removed.
        public mutating func next() async throws(FavoritesError) -> [FavoriteMovie]? {
            try await next(isolation: nil)
        }

        /// The next list, or `nil` when the observation ended, read on the caller's executor.
        ///
        /// - Parameter actor: The caller's actor, if any.
        /// - Returns: The favourites, or `nil` at the end.
        /// - Throws: ``FavoritesError`` when the database fails or the member is removed.
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
