public import Courier

/// Search as the person types or switches category: each search cancels the one in flight,
/// and a superseded search never delivers its results.
///
/// ```swift
/// let session = SearchSession(store: store)
/// // on every change of the text or the category:
/// do throws(RequestError) {
///     guard let found = try await session.search(text, category: category) else { return }  // superseded
///     show(found.results)
/// } catch {
///     showError(error.message)  // a real failure, reported once, to this search's caller
/// }
/// ```
public final class SearchSession: Sendable {
    /// The store searched: a client made with
    /// ``Courier/HTTPClient/Configuration/iTunesStore(baseURL:securityPolicy:timeout:middleware:cache:)``, or for a stand-in.
    public let store: HTTPClient
    private let latest = LatestWins<SearchResults>()

    /// A session searching `store`.
    ///
    /// - Parameter store: A client for the iTunes store, or for anything that answers like it.
    public init(store: HTTPClient) {
        self.store = store
    }

    /// Searches, cancelling the search in flight.
    ///
    /// - Returns: The results, or `nil` when a newer search (or ``cancel()``, or cancelling the
    ///   calling task) superseded this one: cancellation is silent, not an error.
    /// - Throws: `RequestError` when the search itself failed.
    public func search(
        _ term: String,
        category: StoreCategory = .all,
        country: String? = nil,
        language: String? = nil,
        limit: Int = ITunesStore.maximumLimit
    ) async throws(RequestError) -> SearchResults? {
        let store = store
        do {
            return try await latest.run { () async throws(RequestError) in
                try await store.send(
                    ITunesStore.search(
                        term: term,
                        category: category,
                        country: country,
                        language: language,
                        limit: limit
                    )
                )
            }
        } catch .cancelled {
            return nil
        }
    }

    /// Searches as ``search(_:category:country:language:limit:)`` does, unless a search numbered
    /// `sequence` or higher already started — for searches that can arrive out of order, such as a
    /// browser's over several connections, each numbered as it was typed.
    ///
    /// - Returns: The results, or `nil` when superseded (by a newer search, or arriving after one).
    public func search(
        _ term: String,
        category: StoreCategory = .all,
        country: String? = nil,
        language: String? = nil,
        limit: Int = ITunesStore.maximumLimit,
        sequence: Int
    ) async throws(RequestError) -> SearchResults? {
        let store = store
        do {
            return try await latest.run(sequence: sequence) { () async throws(RequestError) in
                try await store.send(
                    ITunesStore.search(
                        term: term,
                        category: category,
                        country: country,
                        language: language,
                        limit: limit
                    )
                )
            }
        } catch .cancelled {
            return nil
        }
    }

    /// Cancels the search in flight; its caller gets `nil`.
    public func cancel() async {
        await latest.cancel()
    }
}
