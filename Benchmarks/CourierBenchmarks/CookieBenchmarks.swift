import Benchmark
import Courier
import CourierTesting
import Foundation
import HTTPTypes

/// What a cookie store costs a request: a client sending through a stub transport with no
/// store, and with a store of 3,000 cookies (180 of them for the request's site); reading a
/// response's 50 `Set-Cookie` fields; and reading Debian's Public Suffix List.
func cookieBenchmarks() {
    let stub = StubTransport()
    stub.on(.get, "/me", .json(#"{"id":1}"#))
    let endpoint = Endpoint<Data>(url: URL(string: "https://www.example.org/me")!)
    let suffixes = PublicSuffixList(rules: "org\ncom\nco.uk")
    let now = Date()

    let plain = HTTPClient(transport: stub)
    Benchmark("Cookies: a request, no store") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await plain.send(endpoint))
        }
    }

    let store = CookieStore(publicSuffixes: suffixes)
    let withCookies = HTTPClient(transport: stub, configuration: .init(cookies: store))
    Benchmark(
        "Cookies: a request, 3,000 stored (180 for its site)",
        configuration: .init(setup: {
            for site in 0..<57 {
                let fields = (0..<50).map { "c\($0)=\(String(repeating: "v", count: 32)); Path=/" }
                await store.receive(fields, from: URL(string: "https://s\(site).example.com/")!, now: now)
            }
            for batch in 0..<4 {
                let fields = (0..<45).map { "own\(batch)-\($0)=1; Domain=example.org; Path=/" }
                await store.receive(fields, from: URL(string: "https://www.example.org/")!, now: now)
            }
        })
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await withCookies.send(endpoint))
        }
    }

    let fields = (0..<50).map { "session\($0)=\(UUID().uuidString); Path=/; Secure; HttpOnly; Max-Age=3600" }
    Benchmark("Cookies: store 50 Set-Cookie fields") { benchmark in
        for _ in benchmark.scaledIterations {
            let fresh = CookieStore(publicSuffixes: suffixes)
            await fresh.receive(fields, from: URL(string: "https://api.example.org/login")!, now: now)
            blackHole(fresh)
        }
    }

    let path = URL(fileURLWithPath: PublicSuffixList.systemPath)
    if FileManager.default.fileExists(atPath: path.path) {
        Benchmark("Public Suffix List: read Debian's list") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PublicSuffixList(contentsOf: path))
            }
        }
    }
}
