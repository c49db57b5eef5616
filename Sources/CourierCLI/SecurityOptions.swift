import ArgumentParser
import Courier
import CourierAsyncHTTPClient

/// `--allow-http HOST` and `--ca-cert FILE`, shared by the commands that fetch URLs.
struct SecurityOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-http"),
        help:
            "Allow cleartext http:// to this host ('*.example.com' for its subdomains too). Repeatable. Loopback is always allowed."
    )
    var allowHTTP: [String] = []

    @Option(
        name: .customLong("ca-cert"),
        help: """
            Also trust the certificates in this PEM file: a private certificate authority, or a service's \
            self-signed certificate. Repeatable.
            """
    )
    var caCertificates: [String] = []

    func validate() throws {
        _ = try trustRoots()
    }

    /// The default policy with the hosts allowed.
    var policy: TransportSecurityPolicy {
        var policy = TransportSecurityPolicy.default
        for host in allowHTTP {
            policy =
                host.hasPrefix("*.")
                ? policy.allowingInsecureHTTP(to: String(host.dropFirst(2)), includingSubdomains: true)
                : policy.allowingInsecureHTTP(to: host)
        }
        return policy
    }

    /// The certificates `--ca-cert` names, or a usage error naming the file.
    func trustRoots() throws -> TrustedCertificates {
        var trusted = TrustedCertificates.none
        for path in caCertificates {
            do {
                trusted = trusted.adding(try TrustedCertificates(pemFile: path))
            } catch {
                throw ValidationError("--ca-cert \(error).")
            }
        }
        return trusted
    }

    /// Runs `body` with a transport that trusts the `--ca-cert` certificates too, and shuts it
    /// down afterwards.
    func withTransport<Result>(
        configuration: AsyncHTTPClientTransport.Configuration = .init(),
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.additionalTrustRoots = try trustRoots()
        return try await AsyncHTTPClientTransport.withTransport(configuration: configuration, body)
    }
}
