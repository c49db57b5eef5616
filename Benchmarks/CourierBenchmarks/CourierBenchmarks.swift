import Benchmark
import Courier
import CourierTesting
import Foundation
import HTTPTypes

/// Micro-benchmarks of the engine's own work, without a network: run with
/// `COURIER_BENCHMARKS=1 swift package benchmark`. The system comparison against raw AsyncHTTPClient and
/// URLSession is `Benchmarks/compare/client/run.sh`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions, .throughput],
        maxDuration: .seconds(2)
    )

    struct Movie: Decodable, Sendable {
        var id: Int
        var title: String
        var releaseDate: String
        var voteAverage: Double
    }
    struct Page: Decodable, Sendable {
        var page: Int
        var results: LossyArray<Movie>
    }

    let endpoint = Endpoint<Page>(
        host: "api.themoviedb.org",
        path: "/3/search/movie",
        query: [URLQueryItem(name: "query", value: "Amélie & the #1 hits"), URLQueryItem(name: "page", value: "2")]
    ).convertingFromSnakeCase()

    let movies = (0..<20).map { index in
        #"{"id": \#(index), "title": "Movie \#(index)", "release_date": "1999-10-15", "vote_average": 8.4}"#
    }
    let pageJSON = #"{"page": 1, "results": [\#(movies.joined(separator: ","))]}"#
    let stub = StubTransport()
    stub.on(.get, "/3/search/movie", .json(pageJSON))
    let client = HTTPClient(transport: stub)

    Benchmark("Prepare an endpoint (URL, query encoding, headers)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try client.prepare(endpoint))
        }
    }

    Benchmark("Send and decode a 20-movie page through the client (stub transport)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await client.send(endpoint))
        }
    }

    let pageData = Data(pageJSON.utf8)
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    Benchmark("Decode the same page with JSONDecoder alone (baseline)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(Page.self, from: pageData))
        }
    }

    Benchmark("JSONValue: parse the page and pick results.19.title") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONValue(parsing: pageData)[path: "results.19.title"])
        }
    }

    // The loopback comparison's workload, without the network: one small movie from
    // http://127.0.0.1 (cleartext, so the security policy looks at the host on every request).
    struct SmallMovie: Decodable, Sendable {
        var id: Int
        var title: String
        var releaseDate: String
        var tags: [String]
    }
    let smallJSON = Data(#"{"id":3,"title":"Dune","release_date":"1965-08-01","tags":["sci-fi","classic"]}"#.utf8)
    let loopbackStub = StubTransport()
    loopbackStub.on(.get, "/json", .json(String(decoding: smallJSON, as: UTF8.self)))
    let loopbackClient = HTTPClient(
        transport: loopbackStub,
        configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080/json"), decoder: decoder)
    )
    let smallEndpoint = Endpoint<SmallMovie>(path: "")
    Benchmark("Loopback workload: send and decode one small movie (stub transport)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await loopbackClient.send(smallEndpoint))
        }
        loopbackStub.clearRequests()
    }
    Benchmark("Loopback workload: decode the small movie with JSONDecoder alone (baseline)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(SmallMovie.self, from: smallJSON))
        }
    }

    let request = try? client.prepare(endpoint.appending(query: "api_key", "secret"))
    Benchmark("Render a redacted cURL command") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(request?.curlCommand())
        }
    }

    cacheBenchmarks()
    cookieBenchmarks()
    gitWireBenchmarks()
    xmlBenchmarks()
    storeBenchmarks()
    favoritesBenchmarks()
}
