import Courier
import CourierTestServer
import CourierTestTraits
import Favorites
import Foundation
import Testing

/// The TMDB client against a loopback stand-in answering in TMDB's format.
@Suite(.loadLimited)
struct TMDBTests {
    @Test func searchResultsDecodeWithNullsAndEmptyDates() async throws {
        try await withTMDB { tmdb, server in
            let dune = try await tmdb.send(TMDB.search.movies("dune"))
            #expect(dune.results.map(\.id) == [438631, 841])
            #expect(dune.totalResults == 2)
            #expect(dune.results.first?.releaseDate == "2021-09-15")
            #expect(dune.results.first?.year == 2021)
            #expect(dune.results.first?.posterPath == "/d5NXSklXo0qyIYkgV94XAgMIckC.jpg")

            let unreleased = try #require(try await tmdb.send(TMDB.search.movies("avengers doomsday")).results.first)
            #expect(unreleased.id == 1_003_596)
            #expect(unreleased.releaseDate == nil, "TMDB sends an empty string")
            #expect(unreleased.year == nil)
            #expect(unreleased.posterPath == nil && unreleased.backdropPath == nil, "TMDB sends null")
            #expect(unreleased.overview == nil)
            #expect(try await tmdb.send(TMDB.search.movies("no such film at all")).results.isEmpty)
            #expect(await server.events.queries(for: "tmdb-search").first == "query=dune&page=1")
        }
    }

    @Test(arguments: [
        ("Dune", 438631),  // two exact titles: TMDB's order decides
        ("ALIEN", 348),  // exact beats the more popular "Alien: Romulus" listed first
        ("amelie", 194),  // accents and case ignored
        ("le fabuleux destin d'Amélie Poulain", 194),  // the original title counts
        ("千と千尋の神隠し", 129),
        ("Godfather", 238),  // no exact title: the first result
    ])
    func bestMatchPrefersAnExactTitle(title: String, expected: Int) async throws {
        try await withTMDB { tmdb, _ in
            let match = try await tmdb.send(TMDB.search.movies(title)).bestMatch(for: title)
            #expect(match?.id == expected)
        }
    }

    @Test func detailsDecodeCollectionsAndUnknowns() async throws {
        try await withTMDB { tmdb, _ in
            let dune = try await tmdb.send(TMDB.movie(438631).details)
            #expect(dune.collection?.name == "Dune Collection")
            #expect(dune.collection?.posterPath == "/wcVafar6Efk3YgFvh8oZQ4yHL6H.jpg")
            #expect(dune.genres.map(\.name) == ["Science Fiction", "Adventure"])
            #expect(dune.runtime == 155)
            #expect(dune.imdbID == "tt1160419")
            #expect(dune.tagline == "It begins.")

            let planned = try await tmdb.send(TMDB.movie(1_241_982).details)
            #expect(planned.collection == nil)
            #expect(planned.releaseDate == nil)
            #expect(planned.runtime == nil, "TMDB sends 0 for an unknown runtime")
            #expect(planned.imdbID == nil)
            #expect(planned.homepage == nil)
            #expect(planned.tagline == nil)
            #expect(planned.posterPath == nil)
            #expect(planned.status == "Planned")

            let inProduction = try await tmdb.send(TMDB.movie(1_003_596).details)
            #expect(inProduction.runtime == nil, "TMDB sends null for an unknown runtime")
        }
    }

    @Test func tmdbErrorBodiesBecomeErrorsWithTMDBsMessage() async throws {
        try await withTMDB { tmdb, server in
            let missing = await #expect(throws: RequestError.self) { try await tmdb.send(TMDB.movie(1).details) }
            #expect(missing?.httpFailure?.status == 404)
            #expect(missing?.httpFailure?.bodyExcerpt == "The resource you requested could not be found.")
            #expect(
                missing?.message.hasSuffix("The server said: The resource you requested could not be found.") == true
            )

            let broken = await #expect(throws: RequestError.self) {
                try await tmdb.send(TMDB.search.movies("server-error"))
            }
            #expect(broken?.category == .serverError)
            #expect(broken?.httpFailure?.bodyExcerpt == "Internal error: Something went wrong, contact TMDB.")

            let badPage = await #expect(throws: RequestError.self) {
                try await tmdb.send(TMDB.movies.topRated(page: 501))
            }
            #expect(badPage?.httpFailure?.status == 400)
            #expect(
                badPage?.httpFailure?.bodyExcerpt.hasPrefix("Invalid page: Pages start at 1 and max at 500.") == true
            )
        }
        try await withTMDB(credentials: .accessToken("wrong")) { tmdb, _ in
            let error = await #expect(throws: RequestError.self) { try await tmdb.send(TMDB.search.movies("dune")) }
            guard case .unauthorized(let failure) = error else {
                Issue.record("expected unauthorized, got \(String(describing: error))")
                return
            }
            #expect(failure.bodyExcerpt == "Invalid API key: You must be granted a valid key.")
            #expect(
                RatingUpdater.reason(.unauthorized(failure))
                    == "TMDB answered 401 Unauthorized: Invalid API key: You must be granted a valid key."
            )
        }
        try await withTMDB(credentials: nil) { tmdb, _ in
            let error = await #expect(throws: RequestError.self) { try await tmdb.send(TMDB.search.movies("dune")) }
            #expect(error?.httpFailure?.status == 401)
        }
    }

    @Test func anAPIKeyIsSentAsAQueryItemAndNeverShown() async throws {
        try await withTMDB(credentials: .apiKey(TMDBRoutes.apiKey)) { tmdb, server in
            let found = try await tmdb.send(TMDB.search.movies("parasite"))
            #expect(found.results.first?.originalTitle == "기생충")
            #expect(
                await server.events.queries(for: "tmdb-search") == [
                    "query=parasite&page=1&api_key=\(TMDBRoutes.apiKey)"
                ]
            )
        }
        try await withTMDB(credentials: .apiKey("not-the-key")) { tmdb, _ in
            let error = await #expect(throws: RequestError.self) { try await tmdb.send(TMDB.search.movies("parasite")) }
            #expect(error?.message.contains("/3/search/movie?query=parasite&page=1") == true)
            #expect(error?.message.contains("not-the-key") == false)
        }
    }

    @Test func topRatedPages() async throws {
        try await withTMDB { tmdb, _ in
            let first = try await tmdb.send(TMDB.movies.topRated())
            #expect(first.page == 1)
            #expect(first.totalResults == 11, "the two unreleased movies have no votes")
            #expect(first.totalPages == 3)
            #expect(first.results.map(\.title).first == "The Shawshank Redemption")
            let voteAverages = first.results.map(\.voteAverage)
            #expect(voteAverages == voteAverages.sorted(by: >))
            let last = try await tmdb.send(TMDB.movies.topRated(page: 3))
            #expect(last.results.count == 1)
        }
    }

    @Test func credentialsComeFromTheEnvironment() {
        #expect(
            TMDBCredentials(environment: ["TMDB_ACCESS_TOKEN": " token\n", "TMDB_API_KEY": "key"])
                == .accessToken("token")
        )
        #expect(TMDBCredentials(environment: ["TMDB_ACCESS_TOKEN": "  ", "TMDB_API_KEY": "key"]) == .apiKey("key"))
        #expect(TMDBCredentials(environment: ["HOME": "/root"]) == nil)
        #expect(TMDBCredentials.howToGetOne.contains("https://www.themoviedb.org/settings/api"))
        #expect(!TMDBCredentials.howToGetOne.contains("courier"), "the library speaks its own terms")
    }
}
