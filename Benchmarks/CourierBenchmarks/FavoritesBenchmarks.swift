import Benchmark
import Courier
import CourierTesting
import Favorites
import Foundation
import HTTPTypes

/// The favourites store's own work on a real SQLite file: one favourite committed, a rating
/// written back, the list of 1,000 read; and a TMDB search page decoded.
func favoritesBenchmarks() {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "favorites-bench-\(UUID().uuidString)"
    )
    let location = directory.appendingPathComponent("favorites.sqlite")

    Benchmark(
        "Favorites: add a favourite (one committed WAL transaction)",
        configuration: .init(
            setup: {
                try? FileManager.default.removeItem(at: directory)
                try await FavoritesStore(at: location).addMember("Bench")
            },
            teardown: { try? FileManager.default.removeItem(at: directory) }
        )
    ) { benchmark in
        let store = try FavoritesStore(at: location)
        for iteration in benchmark.scaledIterations {
            blackHole(try await store.addFavorite("Movie \(UUID().uuidString) \(iteration)", for: "Bench"))
        }
    }

    Benchmark(
        "Favorites: write a rating back (one committed WAL transaction)",
        configuration: .init(
            setup: {
                try? FileManager.default.removeItem(at: directory)
                let store = try FavoritesStore(at: location)
                try await store.addMember("Bench")
                try await store.addFavorite("Dune", for: "Bench")
            },
            teardown: { try? FileManager.default.removeItem(at: directory) }
        )
    ) { benchmark in
        let store = try FavoritesStore(at: location)
        let movieID = try await store.favorites().first?.movieID ?? 0
        for iteration in benchmark.scaledIterations {
            blackHole(try await store.recordRating(of: movieID, tmdbID: 438631, popularity: Double(iteration)))
        }
    }

    Benchmark(
        "Favorites: list 1,000 favourites of 4 members",
        configuration: .init(
            setup: {
                try? FileManager.default.removeItem(at: directory)
                let store = try FavoritesStore(at: location)
                for member in ["Anna", "Ben", "Chloé", "Dev"] { try await store.addMember(member) }
                for number in 0..<1000 {
                    let movie = try await store.addFavorite(
                        "Movie \(number)",
                        for: ["Anna", "Ben", "Chloé", "Dev"][number % 4]
                    )
                    try await store.recordRating(of: movie.favorite.movieID, tmdbID: number, popularity: 1.5)
                }
            },
            teardown: { try? FileManager.default.removeItem(at: directory) }
        )
    ) { benchmark in
        let store = try FavoritesStore(at: location)
        for _ in benchmark.scaledIterations {
            blackHole(try await store.favorites())
        }
    }

    let results = (0..<20).map { index in
        #"{"adult":false,"backdrop_path":null,"genre_ids":[18,80],"id":\#(index),"original_language":"en","#
            + #""original_title":"Movie \#(index)","overview":"A film.","popularity":\#(index).5,"poster_path":null,"#
            + #""release_date":"","title":"Movie \#(index)","video":false,"vote_average":7.5,"vote_count":120}"#
    }
    let page = #"{"page":1,"results":[\#(results.joined(separator: ","))],"total_pages":1,"total_results":20}"#
    let stub = StubTransport()
    stub.on(.get, "/3/search/movie", .json(page))
    let tmdb = HTTPClient(transport: stub, configuration: .tmdb(credentials: nil))
    Benchmark("TMDB: decode a 20-movie search page and pick the best match (stub transport)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await tmdb.send(TMDB.search.movies("movie 7")).bestMatch(for: "movie 7"))
        }
    }
}
