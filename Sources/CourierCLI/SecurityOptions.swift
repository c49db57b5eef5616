import ArgumentParser
import Courier

/// `--allow-http HOST`, shared by the commands that fetch URLs.
struct SecurityOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-http"),
        help:
            "Allow cleartext http:// to this host ('*.example.com' for its subdomains too). Repeatable. Loopback is always allowed."
    )
    var allowHTTP: [String] = []

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
}
