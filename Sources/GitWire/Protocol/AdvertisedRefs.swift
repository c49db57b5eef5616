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

    /// The refs `lsRemote` hands to the function it is given, as they arrive; `lsRemote` runs in
    /// a task of its own, cancelled when the sequence is dropped or its reader cancelled.
    init(
        address: String,
        limits: GitLimits,
        _ lsRemote:
            @escaping @Sendable (@escaping @Sendable (AdvertisedRef) -> Void) async throws(GitWireError) ->
            RefAdvertisement
    ) {
        // The reader throws before the limit is passed: nothing is ever dropped.
        refs = AsyncThrowingStream(bufferingPolicy: .bufferingOldest(Swift.max(1, limits.maximumRefs))) {
            continuation in
            let task = Task {
                do {
                    _ = try await lsRemote { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
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
