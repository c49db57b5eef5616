import Courier
import CourierAppFixture
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

/// `courier app` as a newcomer runs it: no network, no credentials, every tab answering from
/// what Courier ships; Ctrl-C stops it even with a page's event stream open.
@Suite(.loadLimited)
struct AppCommandTests {
    @Test func runsOfflineOnItsRecordingsAndStopsWithAStreamOpen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-app-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("favorites.sqlite").path
        let app = try await CourierService.start(command: ["app", "--port", "0", "--database", database])
        try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
            let page = try await AppPageClient.open(app.url, transport: transport)
            // The recording names no country: the page's locale is not sent to it.
            let search = "/api/store/search?term=king&category=all&page=p&seq=1&locale=fr-FR"
            let store = try JSONValue(parsing: try await page.response(.get, search).value)
            #expect(store["results"]?.arrayValue?.count == 7)
            let missing = try await page.status(.get, "/api/store/search?term=zzz&category=all&page=p&seq=2")
            #expect(missing == 502)
            let chart = try JSONValue(parsing: try await page.response(.get, "/api/movies/top-rated?page=1").value)
            #expect(chart["results"]?.arrayValue?.contains { $0["title"]?.stringValue == "Spirited Away" } == true)
            let books = try JSONValue(parsing: try await page.response(.get, "/api/library/catalog?q=dune").value)
            #expect(books["total"]?.intValue ?? 0 >= 1)
            let feed = try await page.response(.get, "/api/feed?example")
            #expect(feed.value.split(separator: UInt8(ascii: "\n")).count == 13)

            #expect(
                try await page.status(.post, "/api/family", headers: [.origin: page.origin], body: #"{"name":"Anna"}"#)
                    == 201
            )
            // A page watching Anna's favourites keeps its event stream open…
            var events = HTTPFields()
            events[HTTPField.Name("X-Courier-Token")!] = page.token
            let stream = try await page.client.stream(
                Endpoint<Data>(
                    url: try #require(URL(string: page.origin + "/api/movies/events?member=Anna")),
                    headers: events
                )
            )
            var chunks = stream.body.makeAsyncIterator()
            let first = try #require(try await chunks.next())
            #expect(String(decoding: first, as: UTF8.self).hasPrefix("event: favorites\ndata: []"))
            // …a client has sent half a request and another nothing at all…
            let port = app.url.port ?? 0
            let halfSent = try RawConnection(port: port)
            halfSent.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let silent = try RawConnection(port: port)
            // …and Ctrl-C ends the stream cleanly (its last chunk arrives) and stops the app
            // without an error line (issue 28: the built-in library's server was cancelled).
            async let stopped = app.stop(with: SIGINT)
            #expect(try await chunks.next() == nil)
            let result = await stopped
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Stopped."))
            #expect(!result.stderr.contains(" error "), "\(result.stderr)")
            #expect(await halfSent.read(for: 60).closed)
            #expect(await silent.read(for: 60).closed)
        }
    }

    @Test func refusesBadOptionsWithUsageErrors() async throws {
        let port = try await Courier.run("app", "--port", "70000")
        #expect(port.status == 2)
        #expect(port.stderr.contains("--port"))
        let library = try await Courier.run("app", "--library", "ftp://example.com")
        #expect(library.status == 2)
        #expect(library.stderr.contains("--library 'ftp://example.com' is not an http or https URL"))
        let offlineLocale = try await Courier.run("app", "--store-locale", "fr-FR")
        #expect(offlineLocale.status == 2)
        #expect(offlineLocale.stderr.contains("--store-locale applies to --store-service"))
        let badLocale = try await Courier.run(
            "app",
            "--store-service",
            "https://itunes.apple.com",
            "--store-locale",
            "bogus!"
        )
        #expect(badLocale.status == 2)
        #expect(badLocale.stderr.contains("--store-locale 'bogus!' is not a locale such as fr-FR, ja_JP or C."))
    }
}
