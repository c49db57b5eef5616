import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Favorites
import Foundation
import HTTPTypes
import Testing

/// The app's API over HTTP: what it answers, and what it refuses.
struct AppHTTPTests {
    /// A client of the app that opened its page first, so it has the run's token.
    struct PageClient: Sendable {
        let client: HTTPClient
        let token: String
        let origin: String

        static func open(_ app: AppFixture, transport: any HTTPTransport) async throws -> PageClient {
            let client = HTTPClient(transport: transport, configuration: .init(baseURL: app.url, timeout: .seconds(60)))
            let page = String(decoding: try await client.send(Endpoint<Data>(scheme: "http", path: "/")), as: UTF8.self)
            let marker = #"name="courier-token" content=""#
            let start = try #require(page.range(of: marker)).upperBound
            let token = String(page[start...].prefix { $0 != "\"" })
            #expect(token.count == 64)
            return PageClient(client: client, token: token, origin: app.url.absoluteString)
        }

        /// The response to `method path` with the token (unless `token` is false) and `headers`.
        func response(
            _ method: HTTPRequest.Method = .get,
            _ path: String,
            token: Bool = true,
            headers: HTTPFields = [:],
            body: String? = nil
        ) async throws -> DecodedResponse<Data> {
            var fields = headers
            if token { fields[HTTPField.Name("X-Courier-Token")!] = self.token }
            let endpoint = Endpoint<Data>(
                method: method,
                url: try #require(URL(string: origin + path)),
                headers: fields,
                body: body.map { .data(Data($0.utf8), contentType: "application/json") }
            )
            return try await client.response(for: endpoint)
        }

        /// The status of `method path`, whether it succeeded or not.
        func status(
            _ method: HTTPRequest.Method = .get,
            _ path: String,
            token: Bool = true,
            headers: HTTPFields = [:],
            body: String? = nil
        ) async throws -> Int {
            do {
                return try await response(method, path, token: token, headers: headers, body: body).head.status.code
            } catch let error as RequestError {
                guard let failure = error.httpFailure else { throw error }
                return failure.status
            }
        }
    }

    static func withPage(_ body: @Sendable (AppFixture, PageClient) async throws -> Void) async throws {
        try await AppFixture.withApp { app in
            try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(app, try await PageClient.open(app, transport: transport))
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

    @Test func refusesRequestsFromAnywhereButItsOwnPage() async throws {
        try await Self.withPage { app, page in
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
            let cookieOnly = try await page.status(
                .post,
                "/api/family",
                token: false,
                headers: [.cookie: "courier-app-x=\(page.token)"],
                body: #"{"name":"Mallory"}"#
            )
            #expect(cookieOnly == 403)
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
}
