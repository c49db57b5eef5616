import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

@Suite("courier feed", .loadLimited)
struct FeedCommandTests {
    static let atom = """
        <feed xmlns="http://www.w3.org/2005/Atom">
          <title>Example Feed</title>
          <link href="http://example.org/"/>
          <updated>2003-12-13T18:30:02Z</updated>
          <entry><id>urn:1</id><title>Second</title><link href="/2"/><updated>2003-12-13T18:30:02Z</updated></entry>
          <entry><id>urn:2</id><title>First</title><link href="/1"/><published>2003-12-12T10:00:00Z</published></entry>
        </feed>
        """

    @Test func listsEntriesAndPrintsJSON() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).xml")
        try Data(Self.atom.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let list = try await Courier.run("feed", file.path, "--base-url", "http://example.org/feed.xml")
        #expect(list.status == 0)
        // Each row is printed as its entry is parsed: the title column has a fixed width.
        func title(_ text: String) -> String { text.padding(toLength: 60, withPad: " ", startingAt: 0) }
        #expect(
            list.stdout == """
                Example Feed
                DATE        \(title("TITLE"))  LINK
                2003-12-13  \(title("Second"))  http://example.org/2
                2003-12-12  \(title("First"))  http://example.org/1

                """
        )

        let json = try await Courier.run("feed", file.path, "--json", "--limit", "1")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "atom10")
        #expect(object["title"] as? String == "Example Feed")
        #expect(object["updated"] as? String == "2003-12-13T18:30:02Z")
        #expect(object["wellFormed"] as? Bool == true)
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["link"] as? String == "/2", "no base URL: relative links stay relative")
    }

    @Test func fetchesAFeedByURL() async throws {
        try await TestServer.withRunning { server in
            let result = try await Courier.run("feed", server.url("/cacheable/feed").absoluteString, "--json")
            // The route answers text, not XML: read leniently and flagged.
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            )
            #expect(object["wellFormed"] as? Bool == false)
        }
    }

    /// `--cache`: the second run revalidates with the feed's tag, and a 304 serves the stored
    /// feed (issue 32).
    @Test func aCachedFeedIsRevalidated() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            let url = server.url("/cacheable/podcast").absoluteString + "?feed=1&etag=%22p1%22&cc=no-cache"
            let first = try await Courier.run("feed", url, "--cache", directory.path, "--json-lines")
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains(#""title":"podcast #1""#))
            let second = try await Courier.run("feed", url, "--cache", directory.path, "--json-lines")
            #expect(second.stdout == first.stdout, "the stored feed, revalidated")
            #expect(await server.events.hitCount("podcast:304") == 1)
            #expect(await server.events.hitCount("podcast") == 2)
        }
    }

    @Test func entriesArePrintedAsTheyArriveAndLimitStopsReading() async throws {
        try await TestServer.withRunning { server in
            var components = URLComponents(url: server.url("/stream/held/feed"), resolvingAgainstBaseURL: false)!
            components.queryItems = [
                URLQueryItem(name: "first", value: "<rss><channel><title>Live</title><item><title>One</title></item>"),
                URLQueryItem(name: "rest", value: "<item><title>Two</title></item></channel></rss>"),
            ]
            let courier = try BackgroundCourier(["feed", components.url!.absoluteString, "--json-lines"])
            // The server holds the second item: the first was printed while the feed was open.
            try await courier.waitForOutput(timeout: .seconds(30)) { $0.contains(#""title":"One""#) }
            await server.events.release("feed")
            #expect(await courier.waitForExit() == 0)
            // (Standard error says the route's text/plain is not an XML type.)
            let lines = courier.text.split(separator: "\n").filter { $0.hasPrefix("{") }
            #expect(lines.count == 2)
            #expect(lines.last?.contains(#""title":"Two""#) == true)

            // --limit 1 ends at the first entry: it does not wait for the rest, never sent.
            components.path = "/stream/held/limited"
            let limited = try await Courier.run("feed", components.url!.absoluteString, "--limit", "1", "--json")
            await server.events.release("limited")
            #expect(limited.status == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [String: Any]
            )
            #expect(object["title"] as? String == "Live")
            #expect((object["entries"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test func aPageThatIsNotAFeedSaysSo() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("page-\(UUID().uuidString).html")
        try Data("<!DOCTYPE html><html><head><title>Home</title></head><body></body></html>".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Courier.run("feed", file.path)
        #expect(result.status == 6)
        #expect(
            result.stderr
                == "courier: \(file.path) cannot be read as a feed: The document is not a feed: it is an HTML page.\n"
        )
    }

    @Test func anErrorAfterSomeEntriesLeavesWholeJSON() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("deep-\(UUID().uuidString).xml")
        // Entries in the first 64 KiB are printed before the nesting past the limit is read.
        let items = String(repeating: "<item><title>A</title></item>", count: 3000)
        let deep = String(repeating: "<x>", count: 300)
        try Data("<rss><channel><title>T</title>\(items)<item>\(deep)".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Courier.run("feed", file.path, "--json")
        #expect(result.status == 6)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(((object["entries"] as? [[String: Any]])?.count ?? 0) > 1000)
        #expect((object["error"] as? String)?.contains("Elements nest deeper than 256 levels") == true)
    }

    @Test func aMissingFileIsAUsageError() async throws {
        let result = try await Courier.run("feed", "/no/such/feed.xml")
        #expect(result.status == 2)
        #expect(result.stderr == "courier: Cannot read /no/such/feed.xml: give a feed's URL or the path of a file.\n")
    }
}
