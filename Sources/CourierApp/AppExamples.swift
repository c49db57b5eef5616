public import CourierCassettes
public import Foundation

/// What the app shows with no network and no credentials: recordings of the store and of TMDB,
/// replayed through `ReplayTransport`, and a feed file. The same files are in the
/// repository's `Examples/`.
public enum AppExamples {
    /// The example feed (RSS).
    public static var feed: URL? {
        Bundle.module.url(forResource: "feed", withExtension: "xml", subdirectory: "Examples")
    }

    /// The recording of store searches and their artwork.
    public static func storeRecording() throws(AppServerError) -> Cassette {
        try recording("store")
    }

    /// The recording of a TMDB session: a few searches, their details and the top-rated chart.
    public static func tmdbRecording() throws(AppServerError) -> Cassette {
        try recording("tmdb")
    }

    /// The address `cassette` was recorded against (its first request's scheme, host and port).
    public static func baseURL(of cassette: Cassette) -> URL? {
        guard let first = cassette.interactions.first, var components = URLComponents(string: first.request.url)
        else { return nil }
        components.path = ""
        components.query = nil
        return components.url
    }

    private static func recording(_ name: String) throws(AppServerError) -> Cassette {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Examples") else {
            throw .missingResource("Examples/\(name).json")
        }
        do {
            return try Cassette.load(from: url)
        } catch {
            throw .missingResource("Examples/\(name).json (\(error.description))")
        }
    }
}
