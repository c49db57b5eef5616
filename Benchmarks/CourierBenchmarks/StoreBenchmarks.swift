import Benchmark
import Courier
import CourierAsyncHTTPClient
import CourierImages
import CourierTestServer
import CourierTesting
import Foundation
import HTTPTypes
import StoreSearch
import Synchronization

/// The store search's own work and the image pipeline: mapping and sorting a 200-item page,
/// a memory-cache hit, and 1,000 concurrent loads of 50 URLs from a loopback server.
func storeBenchmarks() {
    let kinds = [
        #""wrapperType":"track","kind":"song","trackPrice":1.29,"collectionPrice":9.99,"primaryGenreName":"Rock""#,
        #""wrapperType":"software","kind":"software","price":0,"genres":["Games","Puzzle"],"primaryGenreName":"Games""#,
        #""kind":"ebook","price":8.99,"genres":["Horror","Books"]"#,
        #""wrapperType":"audiobook","collectionPrice":24.95,"primaryGenreName":"Horror""#,
        #""wrapperType":"track","kind":"feature-movie","trackPrice":14.99,"trackRentalPrice":3.99,"primaryGenreName":"Drama""#,
    ]
    let words = [
        "Shining", "carrie", "Éclair", "Misery", "it", "Dark Tower", "Joyland", "11/22/63", "Cujo", "Ångström",
    ]
    let items = (0..<200).map { index in
        let name = "\(words[index % words.count]) \(index * 7919 % 200)"
        return
            #"{\#(kinds[index % kinds.count]),"trackName":"\#(name)","artistName":"Artist \#(index)","currency":"USD","#
            + #""trackViewUrl":"https://apps.apple.com/us/app/id\#(index)","artworkUrl60":"https://is1.example/\#(index)/60x60bb.jpg","#
            + #""artworkUrl100":"https://is1.example/\#(index)/100x100bb.jpg"}"#
    }
    let page = "\n\n\n{\n \"resultCount\":200,\n \"results\": [\n\(items.joined(separator: ",\n"))]\n}\n"
    let stub = StubTransport()
    stub.on(
        .get,
        "/search",
        StubResponse(headers: [.contentType: "text/javascript; charset=utf-8"], body: Data(page.utf8))
    )
    let store = HTTPClient(transport: stub, configuration: .iTunesStore())

    Benchmark("Store: decode, map and sort a 200-item page (stub transport)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await store.send(ITunesStore.search(term: "king")))
        }
    }

    let unsorted: [SearchResult] = (0..<200).map { index in
        SearchResult(name: "\(words[index % words.count]) \(index * 7919 % 200)", type: "Song")
    }
    Benchmark("Store: sort 200 results by name (localizedStandardCompare)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(SearchResults(resultCount: 200, skipped: 0, sorting: unsorted))
        }
    }

    let png = TestImages.png(width: 100, height: 100)
    let imageStub = StubTransport()
    imageStub.on(.get, "/artwork/100x100bb.png", StubResponse(headers: [.contentType: "image/png"], body: png))
    let imageURL = URL(string: "https://is1.example/artwork/100x100bb.png")!
    let pipeline = ImagePipeline(client: HTTPClient(transport: imageStub))
    Benchmark(
        "Images: memory-cache hit",
        configuration: .init(setup: { _ = try await pipeline.image(for: imageURL) })
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await pipeline.image(for: imageURL))
        }
    }

    // 1,000 concurrent loads of 50 URLs from a Hummingbird server in this process; each
    // iteration uses a new pipeline and new URLs, and the server counts the downloads.
    let port = 19_000 + Int(getpid() % 1000)
    let events = TestServerEvents()
    let server = Task { try await TestServer.run(port: port, events: events) }
    let transport = AsyncHTTPClientTransport()
    let round = Counter()
    Benchmark(
        "Images: 1,000 concurrent loads of 50 URLs (loopback)",
        configuration: .init(
            metrics: [.wallClock, .instructions, .mallocCountTotal],
            maxDuration: .seconds(5),
            setup: {
                let probe = HTTPClient(transport: transport)
                for _ in 0..<100 {
                    if (try? await probe.send(Endpoint<Data>(url: URL(string: "http://127.0.0.1:\(port)/json")!)))
                        != nil
                    {
                        return
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
            },
            teardown: {
                let rounds = round.value
                var downloads = 0
                for iteration in 0..<rounds {
                    for index in 0..<50 { downloads += await events.hitCount("artwork:r\(iteration)u\(index)-60.png") }
                }
                print(
                    "Images: \(rounds) rounds of 1,000 loads of 50 URLs; the server counted \(downloads) downloads (\(downloads / max(rounds, 1)) a round)."
                )
                server.cancel()
                try await transport.shutdown()
            }
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let iteration = round.next()
            let pipeline = ImagePipeline(client: HTTPClient(transport: transport))
            let urls = (0..<50).map { URL(string: "http://127.0.0.1:\(port)/artwork/r\(iteration)u\($0)-60.png")! }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<1000 { group.addTask { blackHole(try await pipeline.image(for: urls[index % 50])) } }
                try await group.waitForAll()
            }
        }
    }
}

/// Counts benchmark rounds across the closures that share it.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock { value in
            defer { value += 1 }
            return value
        }
    }
    var value: Int { count.withLock { $0 } }
}
