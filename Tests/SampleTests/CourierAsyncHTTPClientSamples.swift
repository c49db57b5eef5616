import Courier
import CourierAsyncHTTPClient
import Foundation

/// The samples of the `CourierAsyncHTTPClient` module (its `///` examples and its DocC
/// articles), each in the context it takes for granted. Nothing calls them: the build compiles
/// them.
enum CourierAsyncHTTPClientSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - CourierAsyncHTTPClient.docc/CourierAsyncHTTPClient.md, AsyncHTTPClientTransport.swift

    static func transportOverview() async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            let client = HTTPClient(transport: transport)
            let movie = try await client.send(MovieDB.movie(550).details)
            print(movie.title)
        }
    }

    // MARK: - TrustedCertificates.swift

    static func trustedCertificates() throws {
        let trusted = try TrustedCertificates(pemFile: "ca.pem")
        let transport = AsyncHTTPClientTransport(configuration: .init(additionalTrustRoots: trusted))
        keep(transport)
    }

    // MARK: - CourierAsyncHTTPClient.docc/TrustingYourOwnCertificates.md

    // swift-format-ignore
    static func trustingYourOwnCertificates() async throws {
        let roots = try TrustedCertificates(pemFile: "/etc/courier/ca.pem")
        let configuration = AsyncHTTPClientTransport.Configuration(additionalTrustRoots: roots)
        try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
            let client = HTTPClient(transport: transport)
            _ = try await client.send(client.prepare(Endpoint<Data>(url: URL(string: "https://library.lan:8443/health")!)))
        }
    }
}
