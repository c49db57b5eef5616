import CourierTestServer
import Favorites
import Foundation

// Helpers for Benchmarks/compare/movies/run.sh:
//   movies-bench serve PORT     the loopback TMDB stand-in (and the other test routes) until killed
//   movies-bench seed DB N      a new favourites database with N movies, ratings pending
//   movies-bench check DB N     exit 0 when all N movies are rated, consistently, in a sound file

let arguments = CommandLine.arguments.dropFirst()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("movies-bench: \(message)\n".utf8))
    exit(1)
}

switch (arguments.first, arguments.count) {
case ("serve", 2):
    guard let port = Int(arguments.last ?? "") else { fail("serve PORT") }
    try await TestServer.run(port: port)
case ("seed", 3):
    guard let count = Int(arguments.last ?? "") else { fail("seed DB N") }
    let store = try FavoritesStore(at: URL(fileURLWithPath: arguments[arguments.startIndex + 1]))
    try await store.addMember("Bench")
    for number in 1...count { try await store.addFavorite("Synthetic \(number)", for: "Bench") }
case ("check", 3):
    guard let count = Int(arguments.last ?? "") else { fail("check DB N") }
    let store = try FavoritesStore(at: URL(fileURLWithPath: arguments[arguments.startIndex + 1]))
    guard try await store.integrityCheck() == ["ok"] else { fail("integrity check failed") }
    let favorites = try await store.favorites()
    guard favorites.count == count else { fail("\(favorites.count) favourites, expected \(count)") }
    for favorite in favorites {
        let number = Int(favorite.title.dropFirst("Synthetic ".count)) ?? -1
        guard favorite.tmdbID == TMDBRoutes.syntheticBase + number, favorite.popularity == Double(number % 1000) + 0.5,
            favorite.fetchedAt != nil, favorite.lastError == nil
        else { fail("\(favorite.title) is not rated consistently: \(favorite)") }
    }
    print("ok: \(count) rated")
default:
    fail("serve PORT | seed DB N | check DB N")
}
