import Courier
import CourierTesting
import Favorites
import Foundation
import HTTPTypes
import Testing

extension Bundle {
    /// The bundle of a test target's resources, which SwiftPM generates only for a target that
    /// has some: the samples are written for such a target, and this one has none.
    fileprivate static var module: Bundle { .main }
}

/// The samples of the `CourierTesting` module (its `///` examples and its DocC catalog), each in
/// the context it takes for granted. Nothing calls them: the build compiles them.
enum CourierTestingSamples {
    /// A page of movies as a test decodes it from a fixture.
    struct TopRatedPage: Decodable, Sendable {
        var page: Int
    }

    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - CourierTesting.docc/CourierTesting.md

    static func overview() async throws {
        let stub = StubTransport()
        stub.on(.get, "/3/movie/top_rated", try .fixture("top_rated.json", in: Fixtures(bundle: .module)))
        let client = HTTPClient(transport: stub, configuration: .tmdb(credentials: nil))
        let page = try await client.send(TMDB.movies.topRated(page: 1))
        #expect(stub.requests.count == 1)
        keep(page)
    }

    // MARK: - StubTransport.swift

    static func stubTransport(summary: RequestSummary) async throws {
        let stub = StubTransport()
        stub.on(.get, "/3/movie/550", .json(#"{"id": 550, "title": "Fight Club"}"#))
        stub.on(.get, "/3/movie/*", .failure(.transport(TransportFailure(.timedOut, request: summary))))
        let client = HTTPClient(transport: stub, configuration: .init(baseURL: URL(string: "https://api.test")))
        let movie = try await client.send(TMDB.movie(550).details)
        #expect(stub.requests.map(\.url) == ["https://api.test/3/movie/550"])
        keep(movie)
    }

    // MARK: - Fixtures.swift

    static func fixtures(stub: StubTransport, snakeCase: JSONDecoder) throws {
        let fixtures = Fixtures(bundle: .module)
        let page = try fixtures.decode(TopRatedPage.self, from: "top_rated.json", decoder: snakeCase)
        stub.on(.get, "/3/movie/top_rated", try .fixture("top_rated.json", in: fixtures))
        keep(page)
    }
}
