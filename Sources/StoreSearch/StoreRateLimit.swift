public import Courier

/// The store refusing searches for a while. The Search API answers about twenty searches a
/// minute from one address and refuses the rest with `429 Too Many Requests` or
/// `403 Forbidden`; it needs no credentials, so a 403 from it means the same.
///
/// ```swift
/// do throws(RequestError) {
///     show(try await store.send(ITunesStore.search(term: term)).results)
/// } catch {
///     if let limit = StoreRateLimit(error) {
///         showStatus("The store asks for a pause; searching again in \(limit.retryAfter ?? .seconds(10)).")
///     } else {
///         showError(error.message)
///     }
/// }
/// ```
public struct StoreRateLimit: Sendable, Equatable {
    /// The status the store answered with: 429 or 403.
    public var status: Int
    /// How long the store asked to wait (its `Retry-After`), if it said.
    public var retryAfter: Duration?

    /// The limit `error` reports, or `nil` when it is another failure.
    public init?(_ error: RequestError) {
        guard case .clientError(let failure) = error, failure.status == 429 || failure.status == 403 else {
            return nil
        }
        status = failure.status
        retryAfter = failure.retryAfter
    }
}
