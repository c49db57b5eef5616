import Courier
import CourierAsyncHTTPClient
import CourierImages
import Foundation
import StoreSearch

/// The samples of the `StoreSearch` module (its `///` examples and its DocC catalog), each in
/// the context it takes for granted. Nothing calls them: the build compiles them.
enum StoreSearchSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    /// Shows the results of a search.
    static func show(_ results: [SearchResult]) {}

    /// Shows why a search failed.
    static func showError(_ message: String) {}

    /// Shows a line in the status line.
    static func showStatus(_ message: String) {}

    // MARK: - StoreSearch.docc/StoreSearch.md, ITunesStore.swift

    static func overview() async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            let store = HTTPClient(transport: transport, configuration: .iTunesStore())
            let found = try await store.send(ITunesStore.search(term: "Stephen King", category: .ebook))
            for result in found.results { print(result.name, result.price ?? 0) }
        }
    }

    // MARK: - StoreSearch.docc/SearchingAsYouType.md, SearchSession.swift

    static func searchingAsYouType(store: HTTPClient, text: String, category: StoreCategory) async {
        let session = SearchSession(store: store)
        // on every change of the text or the category:
        do throws(RequestError) {
            guard let found = try await session.search(text, category: category) else { return }  // superseded
            show(found.results)
        } catch {
            showError(error.message)  // a real failure, reported once, to this search's caller
        }
    }

    // MARK: - HTTPClient.Configuration+ITunesStore.swift

    static func iTunesStoreConfiguration(transport: some HTTPTransport) {
        let store = HTTPClient(transport: transport, configuration: .iTunesStore())
        let session = SearchSession(store: store)
        keep(session)
    }

    // MARK: - ArtworkSaver.swift

    static func artworkSaver(pipeline: ImagePipeline, found: SearchResults, directory: URL) async throws {
        let saver = ArtworkSaver(pipeline: pipeline)
        let summary = try await saver.save(found.results, size: .large, to: directory) { done, total in
            print("\(done)/\(total)")
        }
        print(summary.downloaded, summary.cached, summary.failures.count)
    }

    // MARK: - StoreLocale.swift

    static func storeLocale() {
        let locale = StoreLocale.fromEnvironment(ProcessInfo.processInfo.environment)
        let search = ITunesStore.search(term: "king", country: locale.country, language: locale.language)
        keep(search)
    }

    // MARK: - StoreRateLimit.swift

    static func storeRateLimit(store: HTTPClient, term: String) async {
        do throws(RequestError) {
            show(try await store.send(ITunesStore.search(term: term)).results)
        } catch {
            if let limit = StoreRateLimit(error) {
                showStatus("The store asks for a pause; searching again in \(limit.retryAfter ?? .seconds(10)).")
            } else {
                showError(error.message)
            }
        }
    }

    // MARK: - StoreBackoff.swift

    static func storeBackoff(store: HTTPClient, term: String) async {
        var backoff = StoreBackoff()
        if let wait = backoff.remaining(at: .now) { return showStatus("Searching again in \(wait).") }
        do throws(RequestError) {
            let found = try await store.send(ITunesStore.search(term: term))
            backoff.answered()
            show(found.results)
        } catch {
            guard let limit = StoreRateLimit(error) else { return showError(error.message) }
            let wait = backoff.refused(limit, at: .now)
            showStatus("The store asks for a pause; searching again in \(wait).")
        }
    }
}
