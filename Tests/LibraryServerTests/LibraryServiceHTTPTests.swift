import Courier
import CourierTestTraits
import Foundation
import HTTPTypes
import LibraryKit
import Testing

/// What the service says at the HTTP level: caching, errors, health, the page.
@Suite(.loadLimited)
struct LibraryServiceHTTPTests {
    private func get(
        _ path: String,
        method: HTTPRequest.Method = .get,
        headers: HTTPFields = [:],
        with client: HTTPClient
    ) async throws -> RawResponse {
        guard let url = URL(string: path, relativeTo: client.configuration.baseURL) else { throw URLError(.badURL) }
        return try await client.send(
            client.prepare(Endpoint<Data>(method: method, url: url.absoluteURL, headers: headers))
        )
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func resultsCarryEntityTagsAndRevalidateTo304(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, _ async throws in
            let first = try await get("/locations?country=fr", with: library)
            #expect(first.status == 200)
            #expect(first.head.headerFields[.cacheControl] == "public, max-age=60")
            #expect(first.head.headerFields[.totalCount] == "2")
            #expect(first.head.headerFields[.contentType] == "application/json")
            let tag = try #require(first.head.headerFields[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))

            let revalidated = try await get("/locations?country=fr", headers: [.ifNoneMatch: tag], with: library)
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
            #expect(revalidated.head.headerFields[.eTag] == tag)

            let weak = try await get(
                "/locations?country=fr",
                headers: [.ifNoneMatch: "\"other\", W/\(tag)"],
                with: library
            )
            #expect(weak.status == 304)

            let otherPage = try await get(
                "/locations?country=fr&limit=1",
                headers: [.ifNoneMatch: tag],
                with: library
            )
            #expect(otherPage.status == 200)
            #expect(otherPage.head.headerFields[.eTag] != tag)

            let sameResults = try await get(
                "/locations?country=FRANCE",
                headers: [.ifNoneMatch: tag],
                with: library
            )
            #expect(sameResults.status == 304, "the same results under another spelling are the same representation")
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func headAnswersLikeGetWithoutABody(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, _ async throws in
            let head = try await get("/catalog?q=vol", method: .head, with: library)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.head.headerFields[.totalCount] == "250")
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func unknownPathsAndMethodsGetProblemDetails(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, _ async throws in
            let missing = try await get("/books", with: library)
            #expect(missing.status == 404)
            #expect(missing.head.headerFields[.contentType] == "application/problem+json")
            let problem = try JSONDecoder().decode(ProblemDetails.self, from: missing.body)
            #expect(
                problem.detail
                    == "Nothing at /books: the server answers /, /catalog, /health, /locations, /openapi.json."
            )

            let post = try await get("/catalog", method: .post, with: library)
            #expect(post.status == 405)
            #expect(post.head.headerFields[.allow] == "GET, HEAD")
            #expect(try JSONDecoder().decode(ProblemDetails.self, from: post.body).status == 405)
        }
    }

    @Test(arguments: LibraryServiceFixture.modes)
    func healthReportsTheDataSize(_ mode: LibraryServiceFixture.StoreMode) async throws {
        try await LibraryServiceFixture.withService(mode: mode) { library, _ async throws in
            var health = try await library.send(LibraryService.health)
            // A database's version is whatever its changes made it (and known once its replica
            // listens); memory has none.
            if mode == .memory { #expect(health.version == nil) }
            health.version = nil
            #expect(
                health
                    == Health(
                        status: "ok",
                        mode: mode.rawValue,
                        database: mode == .memory ? nil : "reachable",
                        locations: 6,
                        books: 254
                    )
            )
        }
    }

    @Test func thePageIsSelfContainedHTMLThatUsesTheAPI() async throws {
        try await LibraryServiceFixture.withService { library, _ async throws in
            let page = try await get("/", with: library)
            #expect(page.status == 200)
            #expect(page.head.headerFields[.contentType] == "text/html; charset=utf-8")
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains("\"/locations\"") && html.contains("\"/catalog\""))
            #expect(!html.contains("http://") && !html.contains("https://"), "no external assets")
            let tag = try #require(page.head.headerFields[.eTag])
            #expect(try await get("/", headers: [.ifNoneMatch: tag], with: library).status == 304)
        }
    }
}
