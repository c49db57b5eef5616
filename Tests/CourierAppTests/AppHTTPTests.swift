import Courier
import CourierAppFixture
import CourierAsyncHTTPClient
import CourierServerKit
import CourierTestServer
import CourierTestTraits
import Favorites
import Foundation
import HTTPTypes
import Testing

/// The app's API over HTTP: what it answers, and what it refuses.
@Suite(.loadLimited)
struct AppHTTPTests {
    /// The app's routes in process, and a client that opened its page.
    static func withPage(_ body: @Sendable (AppFixture, AppPageClient) async throws -> Void) async throws {
        try await AppFixture.withRoutes(body)
    }

    /// The app on a socket, and a client that opened its page: for what needs the wire (a
    /// client that leaves, which only a connection's close tells the app).
    static func withListeningPage(_ body: @Sendable (AppFixture, AppPageClient) async throws -> Void) async throws {
        try await AppFixture.withApp { app in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                try await body(app, try await AppPageClient.open(app.url, transport: transport))
            }
        }
    }

    @Test func searchesTheStoreAndServesOnlyTheArtworkOfItsResults() async throws {
        try await Self.withPage { app, page in
            let found = try await page.response(.get, "/api/store/search?term=king&category=all&page=one&seq=1")
            #expect(found.head.status == .ok)
            let results = try JSONValue(parsing: found.value)["results"]?.arrayValue ?? []
            #expect(results.count == 16)
            let carrie = try #require(results.first { $0["name"]?.stringValue == "Carrie" })
            #expect(carrie["subtitle"]?.stringValue == "Stephen King Tribute (Song)")
            let artwork = try #require(carrie["artwork"]?.stringValue)
            let image = try await page.response(.get, artwork)
            #expect(image.head.status == .ok)
            #expect(image.head.headerFields[.contentType] == "image/png")
            #expect(image.head.headerFields[.cacheControl] == "private, max-age=86400")
            #expect(image.value.starts(with: [0x89, 0x50, 0x4E, 0x47]))

            let elsewhere = try await page.status(.get, "/api/artwork?url=https%3A%2F%2Fexample.com%2Fa.png")
            #expect(elsewhere == 404, "not an open proxy")
        }
    }

    @Test func servesItsPageCompressedToABrowserThatAsksOnly() async throws {
        try await AppFixture.withApp { app in
            let port = app.url.port ?? 0
            for (path, accept) in [("/", "gzip, deflate, br"), ("/app.js", "gzip"), ("/app.css", "br;q=1, gzip;q=0.8")]
            {
                let connection = try RawConnection(port: port)
                connection.send(
                    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept-Encoding: \(accept)\r\n"
                        + "Connection: close\r\n\r\n"
                )
                let head = await connection.read(for: 60, until: "\r\n\r\n").text.lowercased()
                #expect(head.hasPrefix("http/1.1 200"), "\(path)")
                #expect(head.contains("\r\ncontent-encoding: gzip\r\n"), "\(path)")
                #expect(head.contains("\r\nvary: accept-encoding\r\n"), "\(path)")
            }
            let connection = try RawConnection(port: port)
            connection.send("GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            let plain = await connection.read(for: 60, until: "\r\n\r\n").text.lowercased()
            #expect(plain.hasPrefix("http/1.1 200"))
            #expect(!plain.contains("content-encoding"), "never compressed for a client that did not ask")
        }
    }

    @Test func refusesRequestsFromAnywhereButItsOwnPage() async throws {
        // On the wire: the Host of a rebound name, and the cookie named after the app's port.
        try await Self.withListeningPage { app, page in
            let port = app.url.port ?? 0
            let connection = try RawConnection(port: port)
            connection.send("GET / HTTP/1.1\r\nHost: attacker.example:\(port)\r\nConnection: close\r\n\r\n")
            let rebound = await connection.read(for: 60, until: "\r\n")
            #expect(rebound.text.hasPrefix("HTTP/1.1 421"), "a page whose name was pointed at 127.0.0.1 is refused")
            let noToken = try await page.status(.get, "/api/family", token: false)
            #expect(noToken == 403)
            let crossSite = try await page.status(
                .get,
                "/api/family",
                headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
            )
            #expect(crossSite == 403)
            let foreignOrigin = try await page.status(
                .post,
                "/api/family",
                headers: [.origin: "http://attacker.example"],
                body: #"{"name":"Mallory"}"#
            )
            #expect(foreignOrigin == 403)
            let cookie: HTTPFields = [.cookie: "courier-app-\(port)=\(page.token)"]
            #expect(
                try await page.status(.get, "/api/family", token: false, headers: cookie) == 200,
                "reads: the cookie"
            )
            let cookieOnly = try await page.status(
                .post,
                "/api/family",
                token: false,
                headers: cookie,
                body: #"{"name":"Mallory"}"#
            )
            #expect(cookieOnly == 403, "changes: the field")
            // An image in a feed's content that names the API carries the cookie, but is not the page.
            var asImage = cookie
            asImage[HTTPField.Name("Sec-Fetch-Dest")!] = "image"
            #expect(try await page.status(.get, "/api/family", token: false, headers: asImage) == 403)
            asImage[HTTPField.Name("Sec-Fetch-Dest")!] = "empty"
            #expect(try await page.status(.get, "/api/family", token: false, headers: asImage) == 200)
            for path in ["//api/family", "/./api/family", "/api//family", "/API/family"] {
                let sneaky = try await page.status(.post, path, token: false, body: #"{"name":"Mallory"}"#)
                #expect(sneaky != 201, "\(path)")
            }
            #expect(try await app.favorites.members().isEmpty)

            let own = try await page.status(
                .post,
                "/api/family",
                headers: [.origin: page.origin],
                body: #"{"name":"Anna"}"#
            )
            #expect(own == 201)
            #expect(try await app.favorites.members().map(\.name) == ["Anna"])
        }
    }

    /// The Host is parsed once, strictly: whatever a parser could read as another host is
    /// refused, not cut at its first `:` (issue 28).
    @Test func aHostThatIsNotOneOfItsNamesIsRefused() async throws {
        try await AppFixture.withApp { app in
            let port = app.url.port ?? 0
            for host in [
                "127.0.0.1:80@evil.example:\(port)", "127.0.0.1@evil.example", "127.0.0.1:\(port):80",
                "127.0.0.1:\(port)/evil", "127.0.0.1%2F:\(port)", "127.0.0.1 evil:\(port)", "127.0.0.1.:\(port)",
                "localhost.evil.example:\(port)", "127.0.0.1:", "[::1", "",
            ] {
                let connection = try RawConnection(port: port)
                connection.send("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                let answer = await connection.read(for: 60, until: "\r\n")
                #expect(answer.text.hasPrefix("HTTP/1.1 421") || answer.text.hasPrefix("HTTP/1.1 400"), "Host: \(host)")
                #expect(!answer.text.lowercased().contains("set-cookie"), "Host: \(host)")
            }
            let connection = try RawConnection(port: port)
            connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            #expect(await connection.read(for: 60, until: "\r\n").text.hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A client that sends half a request is shed after the request timeout, as by `courier
    /// serve` (issue 28: the app ran with Hummingbird's defaults and kept such connections).
    @Test func halfSentRequestsAreClosed() async throws {
        let limits = ConnectionLimits(
            idleTimeout: .seconds(30),
            requestTimeout: .milliseconds(500),
            maximumConnections: 64
        )
        try await AppFixture.withApp(limits: limits) { app in
            let connections = try (0..<5).map { _ in try RawConnection(port: app.url.port ?? 0) }
            for connection in connections { connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
            for connection in connections {
                let ended = await connection.read(for: 60)
                #expect(ended.closed, "closed by the server, well before the read's 60 s")
            }
        }
    }
}
