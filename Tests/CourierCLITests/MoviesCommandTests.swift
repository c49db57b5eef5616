import ArgumentParser
import CourierTestServer
import CourierTestTraits
import Favorites
import Foundation
import Testing

@testable import CourierCLI

/// `courier family` and `courier movies` against the loopback TMDB stand-in, each test with a
/// database file of its own.
@Suite("courier movies", .loadLimited)
struct MoviesCommandTests {
    static let token = ["TMDB_ACCESS_TOKEN": TMDBRoutes.accessToken]

    /// A database path in a fresh directory, and a function that removes the directory.
    private static func temporaryDatabase() -> (path: String, cleanUp: @Sendable () -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-movies-\(UUID().uuidString)"
        )
        return (
            directory.appendingPathComponent("favorites.sqlite").path,
            { try? FileManager.default.removeItem(at: directory) }
        )
    }

    private static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func addShowsTheFavoriteAtOnceThenItsRating() async throws {
        let (database, cleanUp) = Self.temporaryDatabase()
        defer { cleanUp() }
        try await TestServer.withRunning { server in
            let service = ["--service", server.baseURL.absoluteString, "--database", database] + Self.margin
            #expect(try await Courier.run(["family", "add", "Anna", "--database", database]).stdout == "Added Anna.\n")
            #expect(try await Courier.run(["family", "add", "Ben", "--database", database]).status == 0)

            let added = try await Courier.run(
                ["movies", "add", "--member", "Anna", "Spirited Away"] + service,
                environment: Self.token
            )
            #expect(added.status == 0)
            #expect(
                added.stdout
                    == "Saved Spirited Away for Anna: rating pending.\nSpirited Away: popularity 95.0 (TMDB 129: Spirited Away, 2001).\n"
            )
            let shared = try await Courier.run(
                ["movies", "add", "--member", "ben", "SPIRITED AWAY"] + service,
                environment: Self.token
            )
            #expect(shared.stdout == "Saved Spirited Away for Ben: popularity 95.0.\n")
            #expect(await server.events.hitCount("tmdb-search") == 1, "a movie already rated is not looked up again")

            let listed = try await Courier.run(["movies", "list", "--json", "--database", database])
            let rows = try Self.json(listed.stdout)
            #expect(rows.map { $0["member"] as? String } == ["Anna", "Ben"])
            #expect(
                rows.allSatisfy { Set($0.keys) == ["member", "title", "tmdb_id", "popularity", "fetched_at", "error"] }
            )
            #expect(rows.first?["tmdb_id"] as? Int == 129)
            #expect(rows.first?["popularity"] as? Double == 95.007)
            #expect(rows.first?["error"] is NSNull)
            let fetchedAt = try #require(rows.first?["fetched_at"] as? String)
            #expect(try Date(fetchedAt, strategy: .iso8601).timeIntervalSinceNow > -60)

            let table = try await Courier.run(["movies", "list", "--member", "Anna", "--database", database])
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("TITLE") == true)
            #expect(lines.last?.hasPrefix("Spirited Away  95.0  ") == true)

            let family = try Self.json(
                try await Courier.run(["family", "list", "--json", "--database", database]).stdout
            )
            #expect(family.map { $0["favorites"] as? Int } == [1, 1])
            let removed = try await Courier.run(["family", "remove", "BEN", "--database", database])
            #expect(removed.stdout == "Removed Ben and 1 favourite.\n")
            let gone = try await Courier.run(["movies", "list", "--member", "Ben", "--database", database])
            #expect(gone.status == 7)
            #expect(gone.stderr.contains("Nobody called 'Ben' is in the family (there is: Anna)"))
        }
    }

    @Test func aFailedLookupKeepsTheMovieAndRefreshCompletesIt() async throws {
        let (database, cleanUp) = Self.temporaryDatabase()
        defer { cleanUp() }
        try await TestServer.withRunning { server in
            let service = ["--service", server.baseURL.absoluteString, "--database", database] + Self.margin
            _ = try await Courier.run(["family", "add", "Anna", "--database", database])
            let refused = try await Courier.run(
                ["movies", "add", "--member", "Anna", "Parasite"] + service,
                environment: ["TMDB_ACCESS_TOKEN": "expired"]
            )
            #expect(refused.status == 4)
            #expect(refused.stdout == "Saved Parasite for Anna: rating pending.\n")
            #expect(refused.stderr.contains("Parasite is saved for Anna, its rating pending"))
            #expect(refused.stderr.contains("Invalid API key: You must be granted a valid key."))

            let unknown = try await Courier.run(
                ["movies", "add", "--member", "Anna", "Zzyzx Road Trip"] + service,
                environment: Self.token
            )
            #expect(unknown.status == 7)
            #expect(unknown.stderr.contains("TMDB has no movie titled 'Zzyzx Road Trip'"))

            let rows = try Self.json(
                try await Courier.run(["movies", "list", "--json", "--database", database]).stdout
            )
            #expect(
                rows.map { $0["error"] as? String } == [
                    "TMDB answered 401 Unauthorized: Invalid API key: You must be granted a valid key.",
                    "TMDB has no movie titled 'Zzyzx Road Trip'",
                ]
            )
            #expect(rows.allSatisfy { $0["popularity"] is NSNull })

            let refreshed = try await Courier.run(["movies", "refresh"] + service, environment: Self.token)
            #expect(refreshed.status == 7, "one title has no match")
            #expect(refreshed.stderr.contains("Rated 1 of 2 movies; 1 failed:"))
            let after = try Self.json(
                try await Courier.run(["movies", "list", "--json", "--database", database]).stdout
            )
            #expect(after.first?["popularity"] as? Double == 62.358)
            #expect(after.first?["error"] is NSNull)

            let table = try await Courier.run(["movies", "list", "--database", database])
            #expect(table.stdout.contains("error: TMDB has no movie titled 'Zzyzx Road Trip'"))
        }
    }

    @Test func withoutCredentialsTheRealTMDBIsNeverCalled() async throws {
        let (database, cleanUp) = Self.temporaryDatabase()
        defer { cleanUp() }
        _ = try await Courier.run(["family", "add", "Anna", "--database", database])
        let added = try await Courier.run(["movies", "add", "--member", "Anna", "Heat", "--database", database])
        #expect(added.status == 2)
        #expect(added.stdout == "Saved Heat for Anna: rating pending.\n")
        #expect(added.stderr.contains("https://www.themoviedb.org/settings/api"))
        #expect(added.stderr.contains("courier replay"))
        for command in [
            ["movies", "top-rated"], ["movies", "show", "550"], ["movies", "refresh", "--database", database],
        ] {
            let result = try await Courier.run(command)
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr.contains("TMDB_ACCESS_TOKEN"), "\(command)")
        }
        let rows = try Self.json(try await Courier.run(["movies", "list", "--json", "--database", database]).stdout)
        #expect(rows.first?["title"] as? String == "Heat")
    }

    /// A stand-in that wants credentials none were given for: the failure names the variables
    /// to set rather than asking to check credentials that do not exist (in-process).
    @Test func a401WithoutCredentialsNamesTheVariables() async throws {
        try await TestServer.withRunning { server in
            guard TMDBCredentials(environment: ProcessInfo.processInfo.environment) == nil else { return }
            for arguments in [["top-rated"], ["show", "438631"]] {
                let parsed = try MoviesCommand.parseAsRoot(arguments + ["--service", server.baseURL.absoluteString])
                guard var command = parsed as? any AsyncParsableCommand else {
                    Issue.record("not an async command")
                    return
                }
                let failure = await #expect(throws: CommandFailure.self) { try await command.run() }
                #expect(failure?.message.contains("returned 401 Unauthorized, and no credentials were sent") == true)
                #expect(failure?.message.contains("neither TMDB_ACCESS_TOKEN nor TMDB_API_KEY is set") == true)
                #expect(failure?.message.contains("check your credentials") == false)
            }
        }
    }

    @Test func topRatedAndShowReadTMDB() async throws {
        try await TestServer.withRunning { server in
            let service = ["--service", server.baseURL.absoluteString] + Self.margin
            let second = try await Courier.run(
                ["movies", "top-rated", "--page", "2"] + service,
                environment: Self.token
            )
            #expect(second.status == 0)
            let lines = second.stdout.split(separator: "\n")
            #expect(lines.count == 6)
            #expect(lines.first?.contains("TITLE") == true)
            #expect(lines.dropFirst().first?.hasPrefix("21  ") == true, "ranks continue from page 1")
            #expect(second.stderr == "Page 2 of 3 (11 movies). Next: --page 3.\n")

            let json = try await Courier.run(["movies", "top-rated", "--json"] + service, environment: Self.token)
            let page = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(page["total_results"] as? Int == 11)
            #expect((page["results"] as? [[String: Any]])?.first?["title"] as? String == "The Shawshank Redemption")

            let dune = try await Courier.run(["movies", "show", "438631"] + service, environment: Self.token)
            #expect(dune.status == 0)
            #expect(dune.stdout.hasPrefix("Dune (2021)\nIt begins.\n"))
            #expect(dune.stdout.contains("Collection  Dune Collection"))
            #expect(dune.stdout.contains("Runtime     155 min"))
            let duneJSON = try await Courier.run(
                ["movies", "show", "438631", "--json"] + service,
                environment: Self.token
            )
            let details = try #require(
                try JSONSerialization.jsonObject(with: Data(duneJSON.stdout.utf8)) as? [String: Any]
            )
            #expect(details["title"] as? String == "Dune")
            #expect(details["release_date"] as? String == "2021-09-15")
            #expect((details["belongs_to_collection"] as? [String: Any])?["name"] as? String == "Dune Collection")
            #expect(details["runtime"] as? Int == 155)
            let planned = try await Courier.run(["movies", "show", "1241982"] + service, environment: Self.token)
            #expect(planned.stdout.contains("Released    not yet (Planned)"))
            #expect(!planned.stdout.contains("Runtime"))

            let missing = try await Courier.run(["movies", "show", "1"] + service, environment: Self.token)
            #expect(missing.status == 7)
            #expect(missing.stderr.contains("The resource you requested could not be found."))
            for bad in [
                ["movies", "show", "0"], ["movies", "top-rated", "--page", "501"],
                ["movies", "refresh", "--stale-after", "soon"],
            ] {
                let result = try await Courier.run(bad + service, environment: Self.token)
                #expect(result.status == 2, "\(bad)")
            }
        }
    }

    @Test func watchRedrawsWhenAnotherProcessWrites() async throws {
        let (database, cleanUp) = Self.temporaryDatabase()
        defer { cleanUp() }
        _ = try await Courier.run(["family", "add", "Anna", "--database", database])
        let watch = try BackgroundCourier(["movies", "watch", "--member", "Anna", "--database", database])
        try await watch.waitForOutput { $0.contains("Anna's favourites: 0, 0 pending") }
        try await TestServer.withRunning { server in
            let service = ["--service", server.url("/slow/300").absoluteString, "--database", database] + Self.margin
            let added = try await Courier.run(
                ["movies", "add", "--member", "Anna", "Amélie"] + service,
                environment: Self.token
            )
            #expect(added.status == 0)
        }
        try await watch.waitForOutput { $0.contains("Anna's favourites: 1, 0 pending") }
        let text = watch.text
        let pendingBlock = try #require(text.range(of: "Anna's favourites: 1, 1 pending"))
        #expect(
            text[pendingBlock.upperBound...].contains("Amélie  pending"),
            "the favourite is shown before its rating"
        )
        #expect(text.contains("Amélie  28.1  "))
        await watch.stop(with: SIGINT)
    }

    @Test func killedMidRefreshLosesNothingAndTheNextRefreshCompletes() async throws {
        let (database, cleanUp) = Self.temporaryDatabase()
        defer { cleanUp() }
        let store = try FavoritesStore(at: URL(fileURLWithPath: database))
        try await store.addMember("Anna")
        for number in 1...40 { try await store.addFavorite("Synthetic \(number)", for: "Anna") }
        try await TestServer.withRunning { server in
            let slow = ["--service", server.url("/slow/150").absoluteString, "--database", database]
            let refresh = try BackgroundCourier(
                ["movies", "refresh", "--concurrency", "2"] + slow,
                environment: Self.token
            )
            var rated = 0
            let deadline = ContinuousClock.now + .seconds(20)
            while rated < 4, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                rated = try await store.favorites().filter { $0.popularity != nil }.count
            }
            #expect(await refresh.stop(with: SIGKILL) == SIGKILL)

            let favorites = try await store.favorites()
            #expect(favorites.count == 40, "nothing saved was lost")
            #expect(try await store.integrityCheck() == ["ok"])
            let done = favorites.filter { $0.popularity != nil }
            #expect(done.count >= 4 && done.count < 40, "killed mid-way: \(done.count) rated")
            #expect(done.allSatisfy { $0.tmdbID != nil && $0.fetchedAt != nil && $0.lastError == nil })

            let fast = ["--service", server.baseURL.absoluteString, "--database", database] + Self.margin
            let rest = try await Courier.run(
                ["movies", "refresh", "--concurrency", "8"] + fast,
                environment: Self.token
            )
            #expect(rest.status == 0)
            #expect(rest.stderr == "Rated \(40 - done.count) of \(40 - done.count) movies.\n")
            #expect(try await store.favorites().allSatisfy { $0.popularity != nil })
        }
    }

    @Test func killedWhileAddingKeepsTheFavoritePending() async throws {
        let (database, cleanUp) = Self.temporaryDatabase()
        defer { cleanUp() }
        _ = try await Courier.run(["family", "add", "Anna", "--database", database])
        try await TestServer.withRunning { server in
            let slow = ["--service", server.url("/slow/10000").absoluteString, "--database", database]
            let add = try BackgroundCourier(
                ["movies", "add", "--member", "Anna", "Fight Club"] + slow,
                environment: Self.token
            )
            try await add.waitForOutput { $0.contains("rating pending") }
            try await server.events.waitForHit("tmdb-request")
            #expect(await add.stop(with: SIGKILL) == SIGKILL)
            let store = try FavoritesStore(at: URL(fileURLWithPath: database))
            #expect(try await store.favorites().map(\.rating) == [.pending])

            let fast = ["--service", server.baseURL.absoluteString, "--database", database] + Self.margin
            let refreshed = try await Courier.run(["movies", "refresh"] + fast, environment: Self.token)
            #expect(refreshed.stderr == "Rated 1 of 1 movie.\n")
            #expect(try await store.favorites().map(\.rating) == [.popularity(61.416)])
        }
    }

    /// A loaded machine's margin for TMDB lookups: no test waits for it, each lookup ends at its answer.
    static let margin = ["--timeout", "60"]

    /// `--database PATH` for the commands that use the database.
    private static func databaseOption(_ command: [String], _ database: String) -> [String] {
        ["top-rated", "show"].contains(command[1]) ? [] : ["--database", database]
    }

    /// The README's offline demonstration: the cassette in Examples/ answers `courier movies`
    /// on port 9401, where it was recorded, with no credentials and no network.
    @Test func theExampleCassetteReplaysOffline() async throws {
        let cassette = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/movies.json")
        let session: [[String]] = [
            ["movies", "add", "--member", "Anna", "Spirited Away"],
            ["movies", "add", "--member", "Anna", "Amélie"],
            ["movies", "add", "--member", "Ben", "Dune"],
            ["movies", "add", "--member", "Ben", "Parasite"],
            ["movies", "refresh", "--stale-after", "0"],
            ["movies", "top-rated"],
            ["movies", "show", "129"],
        ]
        let service = ["--service", "http://127.0.0.1:9401"]
        if ProcessInfo.processInfo.environment["COURIER_RECORD_EXAMPLES"] != nil {
            try? FileManager.default.removeItem(at: cassette)
            let (database, cleanUp) = Self.temporaryDatabase()
            defer { cleanUp() }
            try await TestServer.withRunning(port: 9401) { _ in
                for member in ["Anna", "Ben"] {
                    _ = try await Courier.run(["family", "add", member, "--database", database])
                }
                for command in session {
                    let result = try await Courier.run(
                        command + service + Self.databaseOption(command, database) + ["--record", cassette.path],
                        environment: Self.token
                    )
                    #expect(result.status == 0, "\(command): \(result.stderr)")
                }
            }
        }
        let (database, cleanUp) = Self.temporaryDatabase()
        defer { cleanUp() }
        for member in ["Anna", "Ben"] { _ = try await Courier.run(["family", "add", member, "--database", database]) }
        let replay = try await CourierService.start(command: ["replay", cassette.path, "--port", "9401"])
        var outputs: [String] = []
        for command in session {
            let result = try await Courier.run(command + service + Self.databaseOption(command, database))
            #expect(result.status == 0, "\(command): \(result.stderr)")
            outputs.append(result.stdout)
        }
        #expect(outputs[0].hasSuffix("Spirited Away: popularity 95.0 (TMDB 129: Spirited Away, 2001).\n"))
        #expect(outputs[2].hasSuffix("Dune: popularity 91.4 (TMDB 438631: Dune, 2021).\n"))
        #expect(outputs[5].contains("The Shawshank Redemption"))
        #expect(outputs[6].hasPrefix("Spirited Away (2001)\n千と千尋の神隠し\n"))
        let rows = try Self.json(try await Courier.run(["movies", "list", "--json", "--database", database]).stdout)
        #expect(rows.map { $0["tmdb_id"] as? Int } == [194, 129, 438631, 496243])
        #expect(await replay.stop(with: SIGINT).status == 0)
    }
}
