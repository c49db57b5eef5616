import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation

/// `--allow-http HOST`, `--ca-cert FILE`, `--proxy URL` and `--noproxy HOSTS`, shared by the
/// commands that fetch URLs.
struct SecurityOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-http"),
        help:
            "Allow cleartext http:// to this host ('*.example.com' for its subdomains too). Repeatable. Loopback is always allowed, but not as a redirect from https://."
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

    @Option(
        name: .customLong("proxy"),
        help: """
            Send requests through this HTTP proxy: http://[user:password@]host[:port] (port 1080 if none). \
            '' for none. Without it, https_proxy, http_proxy and all_proxy are read as curl reads them.
            """
    )
    var proxy: String?

    @Option(
        name: .customLong("noproxy"),
        help: "Hosts reached without the proxy, comma-separated ('*' for all); in place of NO_PROXY."
    )
    var noProxy: String?

    func validate() throws {
        _ = try trustRoots()
        _ = try proxySettings()
    }

    /// The proxies `--proxy` and `--noproxy` give, or the environment's, or a usage error
    /// naming what is wrong (never the URL, which may hold a password).
    func proxySettings(environment: [String: String] = CommandContext.environment) throws -> ProxySettings {
        do throws(ProxyError) {
            var settings: ProxySettings
            if let proxy {
                // Given, it stands in for the proxy variables, whatever they hold; NO_PROXY stays.
                let server: ProxyServer?
                do throws(ProxyError) {
                    server = proxy.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try ProxyServer(url: proxy)
                } catch {
                    throw ProxyError(variable: "--proxy", reason: error.reason)
                }
                settings = ProxySettings(
                    http: server,
                    https: server,
                    bypass: ProxySettings.bypass(environment: environment)
                )
            } else {
                settings = try ProxySettings(environment: environment)
            }
            if let noProxy { settings.bypass = ProxySettings.bypassEntries(in: noProxy) }
            return settings
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// What `--proxy` and `--noproxy` add to a curl command (`--curl`), the proxy's credentials
    /// redacted; nothing when the proxy comes from the environment, which curl reads alike.
    var curlArguments: String {
        guard let proxy else {
            return noProxy.map { " --noproxy " + PreparedRequest.shellQuoted(Self.listed($0)) } ?? ""
        }
        guard let server = try? ProxyServer(url: proxy) else { return " --noproxy '*'" }  // '': none
        return " -x " + PreparedRequest.shellQuoted("\(server)")
            + (noProxy.map { " --noproxy " + PreparedRequest.shellQuoted(Self.listed($0)) } ?? "")
    }

    /// A `NO_PROXY` list as curl takes it: entries joined by commas.
    private static func listed(_ list: String) -> String {
        ProxySettings.bypassEntries(in: list).joined(separator: ",")
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

    /// Runs `body` with a transport that trusts the `--ca-cert` certificates too and sends
    /// through the proxies given (or the environment's), except to `direct` hosts; shuts it
    /// down afterwards.
    func withTransport<Result>(
        configuration: AsyncHTTPClientTransport.Configuration = .init(),
        direct: [String] = [],
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.additionalTrustRoots = try trustRoots()
        configuration.proxy = try proxySettings()
        configuration.proxy.bypass += direct
        return try await AsyncHTTPClientTransport.withTransport(configuration: configuration, body)
    }
}
