public import CourierCassettes
public import Foundation

/// What the app shows with no network and no credentials: recordings of the store and of TMDB,
/// replayed through `ReplayTransport`, and a feed file. The same files are in the
/// repository's `Examples/`.
public enum AppExamples {
    /// The example feed (RSS), as the document's bytes.
    public static var feed: Data? {
        EmbeddedResources.bytes("Examples/feed.xml").map { Data($0) }
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
        let path = "Examples/\(name).json"
        guard let bytes = EmbeddedResources.bytes(path) else { throw .missingResource(path) }
        do {
            return try Cassette.decode(Data(bytes), name: path)
        } catch {
            throw .missingResource("\(path) (\(error.description))")
        }
    }
}
