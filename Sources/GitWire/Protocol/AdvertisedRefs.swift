/// The refs of a repository as they arrive; see ``AsyncGitClient/refs(_:protocolVersion:heads:tags:symref:)``.
///
/// Reading throws ``GitWireError`` and nothing else. Cancelling the reading task ends the
/// conversation with the server, and so does leaving the loop early (a `break`) once nothing
/// else holds the sequence.
public struct AdvertisedRefs: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = AdvertisedRef
    /// What reading throws.
    public typealias Failure = GitWireError

    private let refs: AsyncThrowingStream<AdvertisedRef, any Error>
    private let address: String

    /// The refs `refs` yields; an error it throws that is not a ``GitWireError`` (there is none
    /// today) reads as a lost connection to `address`.
    init(_ refs: AsyncThrowingStream<AdvertisedRef, any Error>, address: String) {
        self.refs = refs
        self.address = address
    }

    /// Starts reading.
    ///
    /// - Returns: An iterator over the sequence.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(refs: refs.makeAsyncIterator(), address: address)
    }

    /// Reads the refs one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var refs: AsyncThrowingStream<AdvertisedRef, any Error>.AsyncIterator
        let address: String

        /// The next ref, or `nil` after the last one.
        ///
        /// - Returns: The ref, or `nil` at the end.
        /// - Throws: ``GitWireError`` when the conversation fails.
        public mutating func next() async throws(GitWireError) -> AdvertisedRef? {
            try await next(isolation: nil)
        }

        /// The next ref, or `nil` after the last one, read on the caller's executor.
        ///
        /// - Parameter actor: The caller's actor, if any.
        /// - Returns: The ref, or `nil` at the end.
        /// - Throws: ``GitWireError`` when the conversation fails.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(GitWireError) -> AdvertisedRef? {
            do {
                return try await refs.next(isolation: actor)
            } catch let error as GitWireError {
                throw error
            } catch {
                throw .connectionLost(address)
            }
        }
    }
}
