import Courier
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// Seed 004's Mockable, grown up: fixtures decoded directly, and served through the stub
/// transport so the whole client path runs.
@Suite("Fixtures and the stub transport", .loadLimited)
struct FixturesTests {
    struct TopRated: Decodable, Sendable {
        var page: Int
        var results: LossyArray<Movie>
        var totalPages: Int
        var totalResults: Int
    }

    struct Movie: Decodable, Equatable, Sendable {
        var id: Int
        var title: String
        var posterPath: String?
        var releaseDate: String
        var voteAverage: Double
    }

    let fixtures = Fixtures(bundle: .module)

    static func topRated(page: Int) -> Endpoint<TopRated> {
        Endpoint<TopRated>(
            host: "api.themoviedb.org",
            path: "/3/movie/top_rated",
            query: [URLQueryItem(name: "page", value: "\(page)")]
        ).convertingFromSnakeCase()
    }

    @Test func decodesAFixtureDirectly() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let page = try fixtures.decode(TopRated.self, from: "top_rated.json", decoder: decoder)
        #expect(page.totalPages == 498)
        #expect(page.results.map(\.title) == ["The Shawshank Redemption", "The Godfather"])
        #expect(page.results[1].posterPath == nil)
        #expect(page.results.skipped.map(\.index) == [2])
    }

    @Test func servesAFixtureThroughTheClient() async throws {
        let stub = StubTransport()
        stub.on(.get, "/3/movie/top_rated", try .fixture("top_rated.json", in: fixtures))
        let client = HTTPClient(transport: stub)
        let page = try await client.send(Self.topRated(page: 1))
        #expect(page.results.first?.id == 278)
        #expect(stub.requests.map(\.url) == ["https://api.themoviedb.org/3/movie/top_rated?page=1"])
    }

    @Test func routesMatchByMethodAndPathPrefixAndTheLastWins() async throws {
        let stub = StubTransport()
        stub.on(nil, "/3/movie/*", try .fixture("movie.json", in: fixtures))
        stub.on(.get, "/3/movie/top_rated", .status(.serviceUnavailable))
        stub.on(.delete, "/3/movie/*", .status(.noContent))
        let client = HTTPClient(transport: stub, configuration: .init(baseURL: URL(string: "https://stand-in.test")))
        let movie = try await client.send(Endpoint<Movie>(path: "/3/movie/550").convertingFromSnakeCase())
        #expect(movie.title == "Fight Club")
        await #expect(throws: RequestError.self) { try await client.send(Self.topRated(page: 1)) }
        try await client.send(Endpoint<Void>(method: .delete, path: "/3/movie/550"))
        #expect(
            stub.requests.map { "\($0.head.method) \($0.url)" } == [
                "GET https://stand-in.test/3/movie/550",
                "GET https://stand-in.test/3/movie/top_rated?page=1",
                "DELETE https://stand-in.test/3/movie/550",
            ]
        )
    }

    @Test func anUnmatchedRequestGetsA404ThatNamesIt() async throws {
        let stub = StubTransport()
        let error = await #expect(throws: RequestError.self) {
            try await HTTPClient(transport: stub).send(Endpoint<Void>(method: .patch, host: "t", path: "/nothing"))
        }
        guard case .clientError(let failure) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(failure.bodyExcerpt == "StubTransport has no route for PATCH /nothing; add one with on(_:_:_:)")
    }

    @Test func handlersSeeTheRequestAndDelaysAreCancellable() async throws {
        let stub = StubTransport()
        stub.on(.post, "/echo") { request throws(RequestError) in
            .text(String(decoding: request.body ?? Data(), as: UTF8.self))
        }
        stub.on(.get, "/slow", StubResponse.status(.ok).delayed(by: .seconds(60)))
        let client = HTTPClient(transport: stub)
        let echoed = try await client.send(
            Endpoint<Data>(method: .post, host: "t", path: "/echo", body: .data(Data("hi".utf8)))
        )
        #expect(echoed == Data("hi".utf8))

        let slow = Task { () async throws(RequestError) -> Data in
            try await client.send(Endpoint<Data>(host: "t", path: "/slow"))
        }
        while stub.requests.count < 2 { try await Task.sleep(for: .milliseconds(1)) }
        slow.cancel()
        let result = await slow.result
        guard case .failure(let error) = result, case .cancelled? = error as? RequestError else {
            Issue.record("got \(result)")
            return
        }
    }

    @Test func aMissingFixtureSaysWhereItLooked() {
        #expect {
            try fixtures.data("nope.json")
        } throws: { error in
            guard let error = error as? FixtureError, case .notFound(let name, let directory) = error else {
                return false
            }
            return name == "nope.json" && directory.hasSuffix("Fixtures")
                && error.description.hasPrefix("No fixture 'nope.json' in ")
        }
    }
}
