import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loopback load generator for `Benchmarks/compare/client/run.sh`.
///
///     client-load serve PORT
///     client-load run CLIENT URL CONCURRENCY REQUESTS
///
/// CLIENT is `courier` (Courier on AsyncHTTPClient), `ahc` (raw AsyncHTTPClient),
/// `ahc-same-headers` (raw AsyncHTTPClient sending Courier's default header fields),
/// `ahc-gzip` (that, with AsyncHTTPClient's own gzip decompression on) or `urlsession`.
///
/// Every client does the same work per request: GET the URL, read the whole body, decode the
/// JSON into `Movie`. `run` prints one line: `client requests_per_second p50_ms p99_ms`.
///
/// For HTTPS (`Benchmarks/compare/http2`): `CLIENT_LOAD_CA=FILE` trusts that certificate,
/// `CLIENT_LOAD_HTTP1=1` keeps to HTTP/1.1 where HTTP/2 would be negotiated, and
/// `CLIENT_LOAD_DECODE=none` reads the body without decoding it (for other services' JSON).
@main
enum ClientLoad {
    struct Movie: Decodable, Sendable {
        var id: Int
        var title: String
        var releaseDate: String
        var tags: [String]
    }

    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        switch arguments.first {
        case "serve":
            guard let port = arguments.dropFirst().first.flatMap(Int.init) else { return usage() }
            try await TestServer.run(port: port)
        case "run":
            let rest = Array(arguments.dropFirst())
            guard rest.count == 4, let url = URL(string: rest[1]), let concurrency = Int(rest[2]),
                let requests = Int(rest[3])
            else { return usage() }
            try await run(client: rest[0], url: url, concurrency: concurrency, requests: requests)
        default:
            usage()
        }
    }

    static func usage() {
        FileHandle.standardError.write(
            Data("usage: client-load serve PORT | run CLIENT URL CONCURRENCY REQUESTS\n".utf8)
        )
        exit(2)
    }

    static func run(client: String, url: URL, concurrency: Int, requests: Int) async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let environment = ProcessInfo.processInfo.environment
        let authority = environment["CLIENT_LOAD_CA"]
        let http1Only = environment["CLIENT_LOAD_HTTP1"] == "1"
        let decodes = environment["CLIENT_LOAD_DECODE"] != "none"
        let fetch: @Sendable () async throws -> Void
        var shutdown: @Sendable () async throws -> Void = {}
        switch client {
        case "courier":
            let transport = AsyncHTTPClientTransport(
                configuration: .init(
                    additionalTrustRoots: try authority.map { try TrustedCertificates(pemFile: $0) } ?? .none,
                    allowsHTTP2: !http1Only
                )
            )
            // The URL's query goes in the endpoint: a base URL keeps only scheme, host, port and path.
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let query = components?.queryItems ?? []
            components?.query = nil
            let base = components?.url ?? url
            let courier = Courier.HTTPClient(
                transport: transport,
                configuration: .init(baseURL: base, decoder: decoder)
            )
            if decodes {
                let endpoint = Endpoint<Movie>(path: "", query: query)
                fetch = { _ = try await courier.send(endpoint) }
            } else {
                let endpoint = Endpoint<Data>(path: "", query: query)
                fetch = { _ = try await courier.send(endpoint) }
            }
            shutdown = { try await transport.shutdown() }
        case "ahc", "ahc-same-headers", "ahc-gzip":
            var configuration = AsyncHTTPClient.HTTPClient.Configuration()
            if client == "ahc-gzip" { configuration.decompression = .enabled(limit: .size(16 << 20)) }
            if let authority {
                var tls = TLSConfiguration.makeClientConfiguration()
                tls.additionalTrustRoots = [.file(authority)]
                configuration.tlsConfiguration = tls
            }
            configuration.httpVersion = http1Only ? .http1Only : .automatic
            let ahc = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let target = url.absoluteString
            let sendsCourierHeaders = client != "ahc"
            fetch = {
                // Built per request, as a hand-written client does (and as Courier does).
                var request = HTTPClientRequest(url: target)
                if sendsCourierHeaders {
                    // The header fields Courier sends by default, so both put the same bytes on the wire.
                    request.headers.add(name: "User-Agent", value: "Courier/1.0")
                    request.headers.add(name: "Accept", value: "application/json")
                    request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
                }
                let response = try await ahc.execute(request, timeout: .seconds(60))
                guard response.status == .ok else { throw URLError(.badServerResponse) }
                let body = try await response.body.collect(upTo: 16 << 20)
                if decodes { _ = try decoder.decode(Movie.self, from: Data(body.readableBytesView)) }
            }
            shutdown = { try await ahc.shutdown() }
        case "urlsession":
            let session = URLSession(configuration: .ephemeral)
            fetch = {
                let (data, response) = try await session.data(from: url)
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                _ = try decoder.decode(Movie.self, from: data)
            }
        default:
            return usage()
        }

        // Warm the connection pool so every client starts with open connections.
        for _ in 0..<concurrency { try await fetch() }

        let remaining = Countdown(requests)
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var latencies: [Duration] = []
                    while remaining.take() {
                        let begin = ContinuousClock.now
                        try await fetch()
                        latencies.append(ContinuousClock.now - begin)
                    }
                    return latencies
                }
            }
            var all: [Duration] = []
            for try await part in group { all += part }
            return all.sorted()
        }
        let elapsed = ContinuousClock.now - start
        try await shutdown()

        func milliseconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) * 1000 + Double(attoseconds) / 1e15
        }
        let perSecond = Double(latencies.count) / (milliseconds(elapsed) / 1000)
        let p50 = milliseconds(latencies[latencies.count / 2])
        let p99 = milliseconds(latencies[min(latencies.count - 1, latencies.count * 99 / 100)])
        print(client, String(format: "%.0f %.3f %.3f", perSecond, p50, p99))
    }
}

/// Hands out a fixed number of requests to the workers.
final class Countdown: Sendable {
    private let remaining: Atomic<Int>

    init(_ count: Int) { remaining = Atomic(count) }

    /// Takes one request; `false` when none is left.
    func take() -> Bool { remaining.subtract(1, ordering: .relaxed).newValue >= 0 }
}
