/// Runs one operation at a time where only the newest matters: search-as-you-type.
///
/// Starting an operation cancels the one in flight, and a superseded operation never
/// delivers its result — its caller gets ``RequestError/cancelled`` even if the response
/// arrived.
///
/// ```swift
/// let latest = LatestWins<[SearchResult]>()
/// // on every keystroke:
/// do throws(RequestError) {
///     let results = try await latest.run { () async throws(RequestError) in try await client.send(Store.search(text)) }
///     show(results)
/// } catch .cancelled {
///     // superseded by a newer search: show nothing
/// } catch {
///     showError(error.message)
/// }
/// ```
public actor LatestWins<Value: Sendable> {
    private var generation = 0
    private var newestSequence = Int.min
    private var current: Task<Value, any Error>?

    /// Creates an idle instance.
    public init() {}

    // MARK: - Running

    /// Cancels the operation in flight, if any, and runs `operation`.
    ///
    /// - Returns: The operation's result, if no newer operation started meanwhile.
    /// - Throws: ``RequestError/cancelled`` when superseded, cancelled by ``cancel()`` or when the
    ///   calling task is cancelled; otherwise the operation's own error.
    public func run(
        _ operation: @escaping @Sendable () async throws(RequestError) -> Value
    ) async throws(RequestError) -> Value {
        generation += 1
        let mine = generation
        current?.cancel()
        // An unstructured task, because a *later* caller must be able to cancel it.
        let task = Task { () async throws -> Value in try await operation() }
        current = task
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        guard generation == mine else { throw .cancelled }
        current = nil
        switch result {
        case .success(let value):
            return value
        case .failure(let error as RequestError):
            throw error
        case .failure:
            throw .cancelled
        }
    }

    /// Runs `operation` as ``run(_:)`` does, unless an operation numbered `sequence` or higher
    /// already started: for operations that can arrive out of order, such as searches a
    /// browser sends over several connections, numbered as they were typed.
    ///
    /// - Throws: ``RequestError/cancelled`` at once when an operation numbered the same or
    ///   higher started before this one arrived; otherwise as ``run(_:)``.
    public func run(
        sequence: Int,
        _ operation: @escaping @Sendable () async throws(RequestError) -> Value
    ) async throws(RequestError) -> Value {
        guard sequence > newestSequence else { throw .cancelled }
        newestSequence = sequence
        return try await run(operation)
    }

    /// Cancels the operation in flight; its caller gets ``RequestError/cancelled``.
    public func cancel() {
        generation += 1
        current?.cancel()
        current = nil
    }
}
