import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// HTTP/2 as Courier's client speaks it to the library service over TLS: one connection for
/// every concurrent request, counted by a relay between them; HTTP/1.1 when told.
@Suite(.loadLimited)
struct HTTP2Tests {
    /// Sends `count` requests at once through a relay to the service and returns the versions
    /// the responses came over and how many connections the client opened.
    static func burst(
        of count: Int,
        allowsHTTP2: Bool
    ) async throws -> (versions: Set<String>, connections: Int) {
        try await LibraryServiceTLSTests.withHTTPSServer { url, files in
            let port = try #require(url.port)
            return try await CountingRelay.withRelay(to: port) { relay in
                let settings = AsyncHTTPClientTransport.Configuration(
                    connectTimeout: .seconds(60),
                    additionalTrustRoots: try TrustedCertificates(pemFile: files.authorityFile),
                    allowsHTTP2: allowsHTTP2
                )
                return try await AsyncHTTPClientTransport.withTransport(configuration: settings) { transport in
                    let client = HTTPClient(
                        transport: transport,
                        configuration: .init(baseURL: URL(string: "https://127.0.0.1:\(relay.port)"))
                    )
                    let versions = try await withThrowingTaskGroup(of: String?.self) { group in
                        for index in 0..<count {
                            group.addTask {
                                let request = try client.prepare(
                                    Endpoint<Data>(
                                        path: "/catalog",
                                        query: [URLQueryItem(name: "offset", value: "\(index)")]
                                    )
                                )
                                let response = try await client.send(request)
                                #expect(response.status == 200)
                                return response.httpVersion
                            }
                        }
                        var versions: Set<String> = []
                        for try await version in group { versions.insert(version ?? "unknown") }
                        return versions
                    }
                    return (versions, relay.acceptedConnections)
                }
            }
        }
    }

    @Test func aHundredConcurrentRequestsShareOneHTTP2Connection() async throws {
        let (versions, connections) = try await Self.burst(of: 100, allowsHTTP2: true)
        #expect(versions == ["HTTP/2"])
        #expect(connections == 1)
    }

    @Test func withoutHTTP2TheyTakeSeveralHTTP1Connections() async throws {
        let (versions, connections) = try await Self.burst(of: 100, allowsHTTP2: false)
        #expect(versions == ["HTTP/1.1"])
        // The pool's limit per host, reached under a burst of 100.
        #expect((2...8).contains(connections), "\(connections) connections")
    }

    @Test(.enabled(if: TinyProxy.isAvailable, "needs tinyproxy"))
    func http2GoesThroughAProxysTunnel() async throws {
        try await LibraryServiceTLSTests.withHTTPSServer { url, files in
            try await TinyProxy.withRunning { proxy in
                let settings = AsyncHTTPClientTransport.Configuration(
                    connectTimeout: .seconds(60),
                    additionalTrustRoots: try TrustedCertificates(pemFile: files.authorityFile),
                    proxy: ProxySettings(try ProxyServer(url: proxy.url))
                )
                try await AsyncHTTPClientTransport.withTransport(configuration: settings) { transport in
                    let client = HTTPClient(transport: transport, configuration: .init(baseURL: url))
                    let response = try await client.send(try client.prepare(Endpoint<Data>(path: "/catalog")))
                    #expect(response.status == 200)
                    #expect(response.httpVersion == "HTTP/2")
                }
            }
        }
    }
}
