import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import LibraryKit
import Synchronization
import Testing

/// `courier library import|add-book|add-location|close-location|set-hours` and `courier serve --database`, as a person
/// runs them: replicas in processes of their own on one PostgreSQL that the test starts.
@Suite(.loadLimited, .enabled(if: PostgresTestServer.isAvailable, "needs Debian's postgresql package"))
struct LibraryDatabaseTests {
    /// Sends GET `path` to `service` and returns the raw answer, whatever its status.
    static func get(_ path: String, from service: URL, with client: HTTPClient) async throws -> RawResponse {
        guard let url = URL(string: path, relativeTo: service) else { throw URLError(.badURL) }
        return try await client.send(client.prepare(Endpoint<Data>(url: url.absoluteURL)))
    }

    static func withClient<Result>(_ body: (HTTPClient) async throws -> Result) async throws -> Result {
        try await AsyncHTTPClientTransport.withTransport(configuration: .init(connectTimeout: .seconds(60))) {
            try await body(HTTPClient(transport: $0, configuration: .init(timeout: .seconds(60))))
        }
    }

    /// Starts PostgreSQL, imports the CLI tests' small data set into a new database, and runs
    /// `body` with the server and the database's URL.
    /// With `ownServer`, on a server of the test's own, which it may stop and start.
    static func withImportedDatabase(
        ownServer: Bool = false,
        _ body: (PostgresTestServer, String) async throws -> Void
    ) async throws {
        let run = { (postgres: PostgresTestServer) async throws in
            let database = try await postgres.createDatabase()
            let directory = try LibraryCommandTests.dataDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let imported = try await Courier.run("library", "import", "--database", database, "--data", directory.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            try await body(postgres, database)
        }
        if ownServer {
            try await PostgresTestServer.withServer(run)
        } else {
            try await PostgresTestServer.withSharedServer(run)
        }
    }

    @Test func importsChecksAndServesTheSameAnswersFromEveryReplica() async throws {
        try await PostgresTestServer.withSharedServer { postgres in
            let database = try await postgres.createDatabase()
            let bad = try LibraryCommandTests.dataDirectory(
                catalog: #"[{"title": "Dune"},"# + "\n" + #" {"title": "Emma", "year": "1815"}]"#
            )
            defer { try? FileManager.default.removeItem(at: bad) }
            let refused = try await Courier.run("library", "import", "--database", database, "--data", bad.path)
            #expect(refused.status == 2)
            #expect(
                refused.stderr
                    == "courier: \(bad.path)/catalog.json:2:28: [1].year: expected a whole number, found a string\n"
                    + "Fix the file; nothing was imported.\n"
            )

            let directory = try LibraryCommandTests.dataDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let imported = try await Courier.run("library", "import", "--database", database, "--data", directory.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.hasPrefix("Imported 3 books and 3 locations in "))

            let replicas = [
                try await CourierService.start(["--database", database, "--database-timeout", "60"]),
                try await CourierService.start(["--database", database, "--database-timeout", "60"]),
            ]
            try await Self.withClient { client in
                // Each replica says when it listens for changes: from then on a change reaches it.
                var versions: [Int] = []
                for replica in replicas {
                    #expect(await replica.waitForLog("The library's data is at version "))
                    let health = try await Self.get("/health", from: replica.url, with: client)
                    versions.append(try #require(try JSONDecoder().decode(Health.self, from: health.body).version))
                }
                #expect(versions[0] == versions[1])
                let version = versions[0]
                var answers: [(String, String?, String?)] = []
                for replica in replicas {
                    let response = try await Self.get("/catalog?q=&limit=2", from: replica.url, with: client)
                    #expect(response.status == 200)
                    answers.append(
                        (
                            String(decoding: response.body, as: UTF8.self), response.head.headerFields[.eTag],
                            response.head.headerFields[HTTPField.Name("X-Total-Count")!]
                        )
                    )
                }
                #expect(
                    answers[0].0
                        == #"[{"title":"L'Étranger","author":"Albert Camus","year":1942},{"title":"Middlemarch","author":"George Eliot","year":1871}]"#
                )
                #expect(answers[0].0 == answers[1].0)
                #expect(answers[0].1 != nil && answers[0].1 == answers[1].1)
                #expect(answers[0].2 == "3" && answers[1].2 == "3")

                // A change made elsewhere reaches both replicas, though each has the old answer
                // cached: only the database's notification can tell them.
                let added = try await Courier.run(
                    "library",
                    "add-book",
                    "--database",
                    database,
                    "--title",
                    "Lettres persanes",
                    "--year",
                    "-1721"
                )
                #expect(added.status == 0, "\(added.stderr)")
                for replica in replicas {
                    // One INSERT: one new version, which the replica logs once it has it.
                    #expect(await replica.waitForLog("The library's data is at version \(version + 1)."))
                    let after = try await Self.get("/catalog?q=&limit=2", from: replica.url, with: client)
                    #expect(after.head.headerFields[HTTPField.Name("X-Total-Count")!] == "4")
                    #expect(after.head.headerFields[.eTag] != answers[0].1)
                    #expect(
                        String(decoding: after.body, as: UTF8.self).contains(
                            #"{"title":"Lettres persanes","year":-1721}"#
                        )
                    )
                }

                let changed = try await Courier.run(
                    "library",
                    "set-hours",
                    "--database",
                    database,
                    "--city",
                    "LYON",
                    "--hours",
                    "7am–9pm"
                )
                #expect(changed.status == 0, "\(changed.stderr)")
                #expect(changed.stdout == "2 Quai Saint-Vincent, Lyon: open 7am–9pm.\n")
                #expect(await replicas[1].waitForLog("The library's data is at version \(version + 2)."))
                let lyon = try await Self.get("/locations?country=france", from: replicas[1].url, with: client)
                #expect(String(decoding: lyon.body, as: UTF8.self).contains("7am–9pm"))
                #expect(String(decoding: lyon.body, as: UTF8.self).contains(#""city":"Lyon","#))

                // Both replicas have seen the same changes: the same version.
                var reports: [Health] = []
                for replica in replicas {
                    let health = try await Self.get("/health", from: replica.url, with: client)
                    reports.append(try JSONDecoder().decode(Health.self, from: health.body))
                }
                #expect(reports[0].status == "ok" && reports[0].database == "reachable")
                #expect(reports[0].books == 4 && reports[0].locations == 3)
                #expect(reports[0].version != nil && reports[0].version == reports[1].version)
            }
            for replica in replicas {
                let stopped = await replica.stop()
                #expect(stopped.status == 0, "\(stopped.stderr)")
            }
        }
    }

    @Test func singleChangesAreCheckedAndExplained() async throws {
        try await PostgresTestServer.withSharedServer { postgres in
            let database = try await postgres.createDatabase()
            let directory = try LibraryCommandTests.dataDirectory(
                locations: #"""
                    [{"street_address": "1 Rue Cler", "city": "Paris", "country": "France", "emoji": "🇫🇷", "hours": "9am–6pm"},
                     {"street_address": "2 Rue Cler", "city": "Paris", "country": "France", "emoji": "🇫🇷", "hours": "9am–6pm"}]
                    """#
            )
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(
                try await Courier.run("library", "import", "--database", database, "--data", directory.path).status == 0
            )

            let cases: [([String], Int32, String)] = [
                (
                    ["add-book", "--title", "Dune", "--isbn", "978-0-441-17271-8"], 2,
                    #"isbn: "978-0-441-17271-8" is not a valid ISBN-10 or ISBN-13 (check the digits, or leave it out)."#
                ),
                (["add-book", "--title", "Dune", "--year", "99999"], 2, "--year"),
                (
                    ["set-hours", "--city", "Paris", "--hours", "8am"], 2,
                    #"2 locations match "Paris": give the street address as well."#
                ),
                (["set-hours", "--city", "Quito", "--hours", "8am"], 7, #"No location matches "Quito""#),
                (
                    ["close-location", "--city", "Paris"], 2,
                    #"2 locations match "Paris": give the street address as well."#
                ),
                (["close-location", "--city", "Quito"], 7, #"No location matches "Quito""#),
                (
                    [
                        "add-location", "--address", "1 Calle", "--city", "Madrid", "--country", " ", "--emoji", "🇪🇸",
                        "--hours", "9am",
                    ], 2, "country:"
                ),
                (
                    ["set-hours", "--city", "Paris", "--hours", "  ", "--address", "1 rue cler"], 2,
                    "hours: the hours are empty."
                ),
            ]
            for (arguments, status, message) in cases {
                let result = try await Courier.run(["library"] + arguments + ["--database", database])
                #expect(result.status == status, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            }
            let one = try await Courier.run(
                "library",
                "set-hours",
                "--database",
                database,
                "--city",
                "paris",
                "--address",
                "2 RUE CLER",
                "--hours",
                "8am–1pm"
            )
            #expect(one.stdout == "2 Rue Cler, Paris: open 8am–1pm.\n", "\(one.stderr)")

            // A library opens, and one of the two in Paris closes: the city is then unambiguous.
            let opened = try await Courier.run(
                "library",
                "add-location",
                "--database",
                database,
                "--address",
                "Calle de Alcalá 1",
                "--city",
                "Madrid",
                "--country",
                "Spain",
                "--emoji",
                "🇪🇸",
                "--hours",
                "9am–9pm"
            )
            #expect(opened.stdout == "Added Calle de Alcalá 1, Madrid.\n", "\(opened.stderr)")
            let closed = try await Courier.run(
                "library",
                "close-location",
                "--database",
                database,
                "--city",
                "PARIS",
                "--address",
                "1 rue cler"
            )
            #expect(closed.stdout == "Closed 1 Rue Cler, Paris.\n", "\(closed.stderr)")
            let madrid = try await Courier.run("library", "close-location", "--database", database, "--city", "madrid")
            #expect(madrid.stdout == "Closed Calle de Alcalá 1, Madrid.\n", "\(madrid.stderr)")
            let paris = try await Courier.run(
                "library",
                "set-hours",
                "--database",
                database,
                "--city",
                "Paris",
                "--hours",
                "10am"
            )
            #expect(paris.stdout == "2 Rue Cler, Paris: open 10am.\n", "\(paris.stderr)")
        }
        let unreachable = try await Courier.run(
            "library",
            "add-book",
            "--database",
            "postgres://courier@127.0.0.1:9/none",
            "--title",
            "Dune"
        )
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.contains("The library database cannot be reached: "), "\(unreachable.stderr)")
        #expect(unreachable.stderr.contains("refused"), "\(unreachable.stderr)")

        let noUser = try await Courier.run(
            "serve",
            "--database",
            "postgres://secret:hunter2@127.0.0.1/db?sslmode=maybe"
        )
        #expect(noUser.status == 2)
        #expect(noUser.stderr.contains("has sslmode 'maybe'"))
        #expect(!noUser.stderr.contains("hunter2"))
    }

    /// A replica's role needs only to read: the schema is created once, by whoever may.
    @Test func aReplicaServesWithAReadOnlyRole() async throws {
        try await Self.withImportedDatabase { postgres, database in
            let name = try #require(database.split(separator: "/").last?.split(separator: "?").first.map(String.init))
            _ = try await postgres.psql(
                "CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader;",
                database: name
            )
            let reader = postgres.url(database: name).replacingOccurrences(of: "courier@", with: "reader@")
            let replica = try await CourierService.start(["--database", reader, "--database-timeout", "60"])
            try await Self.withClient { client in
                let page = try await Self.get("/catalog?q=mid", from: replica.url, with: client)
                #expect(page.status == 200)
                #expect(String(decoding: page.body, as: UTF8.self).contains("Middlemarch"))
            }
            #expect(await replica.stop().status == 0)
            let refused = try await Courier.run("library", "add-book", "--database", reader, "--title", "Dune")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("The library database refused the change: PostgreSQL: permission denied"))
        }
    }

    @Test func aReplicaAnswers503WhileTheDatabaseIsDownAndRecoversByItself() async throws {
        try await Self.withImportedDatabase(ownServer: true) { postgres, database in
            let replica = try await CourierService.start([
                "--database", database, "--database-timeout", "60",
            ])
            try await Self.withClient { client in
                #expect(try await Self.get("/catalog?q=mid", from: replica.url, with: client).status == 200)

                // Load throughout: every answer is a 200 or a 503, never anything else. The
                // statuses arrive as a stream, so the test waits for the ones it needs.
                let (statuses, answered) = AsyncStream.makeStream(of: Int.self)
                let loading = Task {
                    var round = 0
                    while !Task.isCancelled {
                        round += 1
                        let status = (try? await Self.get("/catalog?q=m\(round % 7)", from: replica.url, with: client))?
                            .status
                        if Task.isCancelled { break }  // the request was cut short by the test, not answered
                        answered.yield(status ?? -1)
                    }
                    answered.finish()
                }
                var seen = Set<Int>()
                var loadAnswers = statuses.makeAsyncIterator()
                try await postgres.halt()
                // The replica says when it finds the database gone; searches answer 503 from then on.
                #expect(await replica.waitForLog("The library database cannot be reached"))
                let down = try await Self.get("/catalog?q=the", from: replica.url, with: client)
                #expect(down.status == 503)
                #expect(down.head.headerFields[.contentType] == "application/problem+json")
                #expect(down.head.headerFields[.retryAfter] == "1")
                #expect(String(decoding: down.body, as: UTF8.self).contains("cannot be reached"))
                let health = try await Self.get("/health", from: replica.url, with: client)
                #expect(health.status == 503)
                #expect(
                    String(decoding: health.body, as: UTF8.self)
                        == #"{"status":"unavailable","mode":"postgresql","database":"unreachable"}"#
                )

                // The load sees the outage too before the database comes back…
                while let status = await loadAnswers.next() {
                    seen.insert(status)
                    if status == 503 { break }
                }
                try await postgres.resume()
                #expect(await replica.waitForLog("The library database can be reached again."))
                let up = try await Self.get("/catalog?q=the", from: replica.url, with: client)
                #expect(up.status == 200)
                #expect(
                    String(decoding: up.body, as: UTF8.self)
                        == #"[{"title":"The Odyssey","author":"Homer","year":-725}]"#
                )
                // …and recovers with it.
                var recovered = false
                while let status = await loadAnswers.next() {
                    seen.insert(status)
                    if status == 200 {
                        recovered = true
                        break
                    }
                }
                loading.cancel()
                while let status = await loadAnswers.next() { seen.insert(status) }
                #expect(recovered)
                #expect(seen.isSubset(of: [200, 503]), "\(seen)")
                #expect(seen.contains(503))
            }
            let stopped = await replica.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("Lost the library database's notifications"))
            #expect(stopped.stderr.contains("The library database can be reached again."))
        }
    }
}
