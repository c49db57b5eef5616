import CourierTestTraits
import Foundation
import Testing

/// `courier serve`, `courier locations` and `courier catalog`, run as a person would.
@Suite(.loadLimited)
struct LibraryCommandTests {
    static let locations = #"""
        [{"street_address": "1 Rue Cler", "city": "Paris", "country": "France", "emoji": "🇫🇷", "hours": "9am–6pm"},
         {"street_address": "Boulevard Carde", "city": "Abidjan", "country": "Côte d'Ivoire", "emoji": "🇨🇮", "hours": "8am–5pm"},
         {"street_address": "2 Quai Saint-Vincent", "city": "Lyon", "country": "France", "emoji": "🇫🇷", "hours": "10am–7pm"}]
        """#
    static let catalog = #"""
        [{"title": "Middlemarch", "author": "George Eliot", "year": 1871},
         {"title": "The Odyssey", "author": "Homer", "year": -725},
         {"title": "L'Étranger", "author": "Albert Camus", "year": 1942}]
        """#

    /// A data directory in a fresh temporary folder; removed by the caller.
    static func dataDirectory(catalog: String = catalog, locations: String = locations) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(catalog.utf8).write(to: directory.appendingPathComponent("catalog.json"))
        try Data(locations.utf8).write(to: directory.appendingPathComponent("locations.json"))
        return directory
    }

    @Test func servesSearchesAndStopsOnSIGTERM() async throws {
        let directory = try Self.dataDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The files are read again on SIGHUP only: polling is the library's own test.
        let service = try await CourierService.start(["--data", directory.path, "--reload-interval", "3600"])
        let address = service.url.absoluteString

        let france = try await Courier.run("locations", "fr", "--service", address)
        #expect(france.status == 0)
        #expect(
            france.stdout == """
                    ADDRESS               CITY   COUNTRY  HOURS
                🇫🇷  1 Rue Cler            Paris  France   9am–6pm
                🇫🇷  2 Quai Saint-Vincent  Lyon   France   10am–7pm

                """
        )

        let books = try await Courier.run("catalog", "", "--service", address)
        #expect(
            books.stdout == """
                TITLE        AUTHOR          YEAR
                L'Étranger   Albert Camus    1942
                Middlemarch  George Eliot    1871
                The Odyssey  Homer         725 BC

                """
        )

        let json = try await Courier.run("locations", "CÔTE", "--service", address, "--json")
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]]
        #expect(decoded?.map { $0["city"] } == ["Abidjan"])

        let paged = try await Courier.run("locations", "", "--service", address, "--limit", "1")
        #expect(paged.stdout.components(separatedBy: "\n").count == 3)
        #expect(paged.stderr == "Results 1–1 of 3. Next page: --offset 1.\n")

        let nothing = try await Courier.run("catalog", "zzz", "--service", address)
        #expect(nothing.status == 7)
        #expect(nothing.stdout.isEmpty)
        #expect(nothing.stderr == "courier: No books with a title starting with 'zzz'. Try fewer letters.\n")

        // An edit is served once the files are read again; a bad one keeps the last good data
        // and says why (issue 32).
        try Data(#"[{"title": "Persuasion", "year": 1817}]"#.utf8).write(
            to: directory.appendingPathComponent("catalog.json")
        )
        service.send(SIGHUP)
        #expect(await service.waitForLog("The library's data is at version 2: 3 libraries, 1 books"))
        let edited = try await Courier.run("catalog", "", "--service", address, "--json")
        #expect(edited.stdout.contains("Persuasion") && !edited.stdout.contains("Middlemarch"))
        try Data(#"[{"title": "Persuasion", "year": "1817"}]"#.utf8).write(
            to: directory.appendingPathComponent("catalog.json")
        )
        service.send(SIGHUP)
        #expect(await service.waitForLog("Kept the library's data at version 2: "))
        #expect(service.hasLogged("catalog.json:1:"), "the file and place of the mistake")
        #expect(service.hasLogged("[0].year: expected a whole number"))
        let kept = try await Courier.run("catalog", "", "--service", address, "--json")
        #expect(kept.stdout == edited.stdout)

        let stopped = await service.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stdout.hasSuffix("Stopped.\n"))
        #expect(stopped.stderr.contains("GET /locations?country=fr&limit=50 200"), "access log: \(stopped.stderr)")
    }

    @Test func aServiceThatIsDownIsExplained() async throws {
        let result = try await Courier.run("locations", "France", "--service", "http://127.0.0.1:9")
        #expect(result.status == 3)
        #expect(result.stderr.contains("refused"))
        #expect(
            result.stderr.hasSuffix(
                " Is the library service running? Start it with 'courier serve', or pass --service URL.\n"
            )
        )
    }

    @Test func malformedDataStopsStartUpWithThePosition() async throws {
        let directory = try Self.dataDirectory(
            catalog: "[\n  {\"title\": \"Emma\", \"author\": \"Jane Austen\", \"year\": \"1815\"}\n]"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Courier.run("serve", "--port", "0", "--data", directory.path)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                courier: \(directory.path)/catalog.json:2:54: [0].year: expected a whole number, found a string
                Fix the file, or start without --data to serve the built-in data.

                """
        )
    }

    @Test func aPortInUseIsExplained() async throws {
        let first = try await CourierService.start()
        let port = try #require(first.url.port)
        let second = try await Courier.run("serve", "--port", String(port))
        #expect(second.status == 3)
        #expect(
            second.stderr
                == "courier: Cannot listen on 127.0.0.1:\(port): the port is in use: stop the other server or choose another port. Pass another --port.\n"
        )
        #expect(await first.stop(with: SIGINT).status == 0)
    }

    @Test func badOptionsAreUsageErrors() async throws {
        let port = try await Courier.run("serve", "--port", "70000")
        #expect(port.status == 2)
        #expect(
            port.stderr.hasPrefix(
                "Error: The value '70000' is invalid for '--port <port>': give a whole number from 0 to 65535.\n"
            )
        )
        let limit = try await Courier.run("catalog", "a", "--limit", "5000")
        #expect(limit.status == 2)
        #expect(
            limit.stderr.hasPrefix(
                "Error: The value '5000' is invalid for '--limit <limit>': give a whole number from 0 to 1000.\n"
            )
        )
        let reload = try await Courier.run("serve", "--reload-interval", "1")
        #expect(reload.status == 2)
        #expect(reload.stderr.contains("--reload-interval applies to --data only"))
        let service = try await Courier.run("catalog", "a", "--service", "ftp://x")
        #expect(service.status == 2)
        #expect(service.stderr.contains("--service 'ftp://x' is not an http or https URL"))
    }
}
