// The README's favourites sample ("courier family and courier movies"), whose imports must open
// a file.

import Courier
import Favorites

// swift-format-ignore
func rateFavorites(transport: any HTTPTransport, token: String, render: ([FavoriteMovie]) -> Void) async throws {
    let store = try FavoritesStore(at: FavoritesStore.defaultLocation())
    let tmdb = HTTPClient(transport: transport, configuration: .tmdb(credentials: .accessToken(token)))
    try await store.addMember("Anna")
    let added = try await store.addFavorite("Spirited Away", for: "Anna")   // committed, rating pending
    let outcome = try await RatingUpdater(store: store, tmdb: tmdb).rate(added.favorite.movieID)
    if case .rated(let match) = outcome { print(match.title, match.popularity) }
    for try await favorites in store.favoritesUpdates(of: "Anna") { render(favorites) }
}
