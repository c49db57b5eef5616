import Courier
import Favorites
import Foundation

/// The samples of the `Favorites` module (its `///` examples and its DocC catalog), each in the
/// context it takes for granted. Nothing calls them: the build compiles them.
enum FavoritesSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    /// Shows a list of favourites.
    static func render(_ favorites: [FavoriteMovie]) {}

    // MARK: - Favorites.docc/Favorites.md, Store/FavoritesStore.swift

    // swift-format-ignore
    static func store() async throws {
        let store = try FavoritesStore(at: FavoritesStore.defaultLocation())
        try await store.addMember("Anna")
        let added = try await store.addFavorite("Dune", for: "Anna")   // rating pending
        try await store.recordRating(of: added.favorite.movieID, tmdbID: 438631, popularity: 138.3)
    }

    // MARK: - Store/FavoritesStore+Observation.swift

    static func favoritesUpdates(store: FavoritesStore) async throws {
        for try await favorites in store.favoritesUpdates(of: "Anna") {
            render(favorites)
        }
    }

    // MARK: - Favorites.docc/RatingFavouritesWithTMDB.md, RatingUpdater.swift

    static func ratingUpdater(store: FavoritesStore, tmdb: HTTPClient) async throws {
        let updater = RatingUpdater(store: store, tmdb: tmdb)
        let added = try await store.addFavorite("Dune", for: "Anna")
        let outcome = try await updater.rate(added.favorite.movieID)
        let summary = try await updater.refresh(staleAfter: .seconds(7 * 86_400), concurrency: 4)
        keep(outcome)
        keep(summary)
    }

    // MARK: - TMDB/TMDB.swift

    static func tmdb(transport: some HTTPTransport, token: String) async throws {
        let tmdb = HTTPClient(transport: transport, configuration: .tmdb(credentials: .accessToken(token)))
        let found = try await tmdb.send(TMDB.search.movies("Dune"))
        let details = try await tmdb.send(TMDB.movie(438631).details)
        let chart = try await tmdb.send(TMDB.movies.topRated(page: 2))
        keep(found)
        keep(details)
        keep(chart)
    }

    // MARK: - TMDB/HTTPClient.Configuration+TMDB.swift

    static func tmdbConfiguration(transport: some HTTPTransport, token: String) async throws {
        let tmdb = HTTPClient(transport: transport, configuration: .tmdb(credentials: .accessToken(token)))
        if let dune = try await tmdb.send(TMDB.search.movies("Dune")).bestMatch(for: "Dune") {
            print(dune.title, dune.popularity)
        }
    }

    // MARK: - TMDB/TMDBCredentials.swift

    static func credentials() {
        guard let credentials = TMDBCredentials(environment: ProcessInfo.processInfo.environment) else {
            print(TMDBCredentials.howToGetOne)
            return
        }
        keep(credentials)
    }
}
