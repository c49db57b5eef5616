import Benchmark
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTesting
import Foundation
import HTTPTypes

/// The HTTP cache's answers against a real loopback round trip: the same small JSON document
/// from the memory tier, from the disk tier, and from a Hummingbird server on 127.0.0.1
/// through AsyncHTTPClient.
func cacheBenchmarks() {
    let body = #"{"id":3,"title":"Dune","release_date":"1965-08-01","tags":["sci-fi","classic"]}"#
    let stub = StubTransport()
    stub.on(
        .get,
        "/cached",
        StubResponse(headers: [.contentType: "application/json", .cacheControl: "max-age=3600"], body: Data(body.utf8))
    )
    let endpoint = Endpoint<Data>(url: URL(string: "http://127.0.0.1:8080/cached")!)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-cache-\(getpid())")
    guard let memoryCache = try? HTTPCache(), let diskCache = try? HTTPCache(memoryCapacity: 0, directory: directory)
    else {
        print("The cache benchmarks need a writable \(directory.path); skipped.")
        return
    }
    let memoryClient = HTTPClient(transport: stub, configuration: .init(middleware: [Caching(memoryCache)]))
    Benchmark(
        "HTTP cache: memory hit",
        configuration: .init(setup: { _ = try await memoryClient.send(endpoint) })
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await memoryClient.send(endpoint))
        }
    }

    let diskClient = HTTPClient(transport: stub, configuration: .init(middleware: [Caching(diskCache)]))
    Benchmark(
        "HTTP cache: disk hit (memory tier off)",
        configuration: .init(
            setup: { _ = try await diskClient.send(endpoint) },
            teardown: { try? FileManager.default.removeItem(at: directory) }
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await diskClient.send(endpoint))
        }
    }

    // The same document over the network: a server process of our own is the fair comparison,
    // but one in this process, on its own port, shows the order of magnitude.
    let port = 18_000 + Int(getpid() % 1000)
    let server = Task { try await TestServer.run(port: port) }
    let networkEndpoint = Endpoint<Data>(url: URL(string: "http://127.0.0.1:\(port)/json")!)
    let transport = AsyncHTTPClientTransport()
    let networkClient = HTTPClient(transport: transport)
    Benchmark(
        "HTTP cache: no cache, loopback round trip (AsyncHTTPClient, Hummingbird)",
        configuration: .init(
            setup: {
                for _ in 0..<100 {
                    if (try? await networkClient.send(networkEndpoint)) != nil { return }
                    try await Task.sleep(for: .milliseconds(50))
                }
            },
            teardown: {
                server.cancel()
                try await transport.shutdown()
            }
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await networkClient.send(networkEndpoint))
        }
    }
}
