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
    let memoryClient = HTTPClient(transport: stub, configuration: .init(cache: memoryCache))
    Benchmark(
        "HTTP cache: memory hit",
        configuration: .init(setup: { _ = try await memoryClient.send(endpoint) })
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await memoryClient.send(endpoint))
        }
    }

    let diskClient = HTTPClient(transport: stub, configuration: .init(cache: diskCache))
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
    cacheRangeAndStaleBenchmarks()
}

/// Issue 18's two comparisons, each against a Hummingbird server on 127.0.0.1 in this process:
/// 64 KiB of a 1 MiB resource from a stored 200 and from the server; a stale response's answer
/// within its `stale-while-revalidate` window and a revalidation that waits for the server's 304.
func cacheRangeAndStaleBenchmarks() {
    // The server and transport live as long as the benchmark process: benchmarks may run in
    // any order, so none of them may stop what the others use.
    let port = 19_000 + Int(getpid() % 1000)
    Task { try await TestServer.run(port: port) }
    let transport = AsyncHTTPClientTransport()
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
    let range: HTTPFields = [.range: "bytes=524288-589823"]
    let resource = url("/cacheable/rangebench?cc=max-age%3D3600&etag=%22r%22&bytes=1048576")
    guard let rangeCache = try? HTTPCache(memoryCapacity: 4 << 20), let staleCache = try? HTTPCache(),
        let blockingCache = try? HTTPCache()
    else { return }
    let cached = HTTPClient(transport: transport, configuration: .init(cache: rangeCache))
    let direct = HTTPClient(transport: transport)

    Benchmark(
        "HTTP cache: 64 KiB range of a stored 1 MiB 200",
        configuration: .init(setup: {
            for _ in 0..<100 {
                if (try? await cached.send(cached.prepare(Endpoint<Data>(url: resource)))) != nil { return }
                try await Task.sleep(for: .milliseconds(50))
            }
        })
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await cached.send(cached.prepare(Endpoint<Data>(url: resource, headers: range))))
        }
    }
    Benchmark("HTTP cache: 64 KiB range from the server (no cache)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await direct.send(direct.prepare(Endpoint<Data>(url: resource, headers: range))))
        }
    }

    // Stale as soon as stored (max-age 0), with an entity tag: every request either answers at
    // once while a background 304 freshens it, or waits for that 304.
    let stale = url("/cacheable/swrbench?cc=max-age%3D0%2C%20stale-while-revalidate%3D3600&etag=%22w%22")
    let blocking = url("/cacheable/blockbench?cc=max-age%3D0&etag=%22w%22")
    let staleClient = HTTPClient(transport: transport, configuration: .init(cache: staleCache))
    let blockingClient = HTTPClient(transport: transport, configuration: .init(cache: blockingCache))
    Benchmark(
        "HTTP cache: stale-while-revalidate answer (revalidated in the background)",
        configuration: .init(
            setup: { _ = try await staleClient.send(Endpoint<Data>(url: stale)) },
            teardown: { await staleCache.shutdown() }
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await staleClient.send(Endpoint<Data>(url: stale)))
        }
    }
    Benchmark(
        "HTTP cache: blocking revalidation (waits for the 304)",
        configuration: .init(setup: { _ = try await blockingClient.send(Endpoint<Data>(url: blocking)) })
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await blockingClient.send(Endpoint<Data>(url: blocking)))
        }
    }
}
