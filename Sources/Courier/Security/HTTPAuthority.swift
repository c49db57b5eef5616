#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host and an optional port, read from an authority (`host[:port]`, an IPv6 address in
/// brackets) by one strict rule: the rule by which the client judges where a request goes, and
/// by which Courier's servers judge a request's `Host` field.
///
/// A host is a name of ASCII letters, digits, `-`, `.`, `_` and `~`, or an IPv6 address in
/// brackets. Anything a parser could read as another host is refused rather than guessed at:
/// user information (`127.0.0.1:80@evil.example`), percent-encoded bytes, more than one `:`
/// outside brackets, an empty or non-numeric port, ports outside 1…65535, spaces, control
/// bytes and non-ASCII names (write them in their `xn--` form).
///
/// ```swift
/// let local = HTTPAuthority(parsing: "127.0.0.1:8090")     // host "127.0.0.1", port 8090
/// let named = HTTPAuthority(parsing: "[::1]")               // host "::1", no port
/// let trick = HTTPAuthority(parsing: "127.0.0.1:80@evil.example:8090")  // nil
/// ```
public struct HTTPAuthority: Sendable, Hashable, CustomStringConvertible {
    /// The host, lowercased, without IPv6 brackets. A trailing dot is kept: `localhost.` is a
    /// name a resolver may send to DNS, not this machine.
    public var host: String
    /// The port, when the authority gives one.
    public var port: Int?

    /// Reads `authority`, or `nil` when it is not one host and port that every parser reads
    /// alike (``problem(with:)`` says why).
    ///
    /// - Parameter authority: A `Host` field's value or a URL's authority.
    public init?(parsing authority: some StringProtocol) {
        guard case .success(let parsed) = Self.parse(Substring(authority)) else { return nil }
        self = parsed
    }

    /// Why `authority` is not accepted, or `nil` when it is.
    ///
    /// - Parameter authority: A `Host` field's value or a URL's authority.
    /// - Returns: A sentence fragment such as "the port '0' is not a number in 1…65535".
    public static func problem(with authority: some StringProtocol) -> String? {
        if case .failure(let problem) = parse(Substring(authority)) { return problem.reason }
        return nil
    }

    /// Whether the host always means this machine: `localhost`, `::1` or 127.0.0.0/8 in dotted
    /// decimal, exactly as written.
    public var isLoopback: Bool { TransportSecurityPolicy.isLoopback(host) }

    /// `host[:port]`, with an IPv6 host in brackets.
    public var description: String { Authority.format(host: host, port: port) }

    struct Problem: Error {
        var reason: String
    }

    static func parse(_ text: Substring) -> Result<HTTPAuthority, Problem> {
        var authority = text
        if authority.contains("@") {
            return .failure(
                Problem(reason: "it has user information (user@host); send credentials in a header field instead")
            )
        }
        var port: Int?
        if let colon = portSeparator(in: authority) {
            let digits = authority[authority.index(after: colon)...]
            guard let number = RequestTarget.port(digits) else {
                return .failure(Problem(reason: "the port '\(digits)' is not a number in 1…65535"))
            }
            port = number
            authority = authority[..<colon]
        }
        if authority.first == "[" {
            guard authority.count >= 2, authority.last == "]" else {
                return .failure(Problem(reason: "an IPv6 address must end with ']'"))
            }
            authority = authority.dropFirst().dropLast()
            var address = in6_addr()
            guard authority.contains(":"), !authority.contains("["), !authority.contains("]"),
                inet_pton(AF_INET6, String(authority), &address) == 1
            else {
                return .failure(Problem(reason: "'[\(authority)]' is not an IPv6 address"))
            }
        } else if authority.contains(":") {
            return .failure(Problem(reason: "an IPv6 address must be written in brackets"))
        }
        if let problem = RequestTarget.problem(withHost: String(authority)) {
            return .failure(Problem(reason: problem))
        }
        return .success(HTTPAuthority(host: authority.lowercased(), port: port))
    }

    private init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }

    /// The `:` before the port: the one after an IPv6 literal's `]`, or the only one.
    private static func portSeparator(in authority: Substring) -> Substring.Index? {
        if authority.first == "[" {
            guard let close = authority.lastIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            return rest.first == ":" ? rest.startIndex : nil
        }
        guard let colon = authority.firstIndex(of: ":"), colon == authority.lastIndex(of: ":") else { return nil }
        return colon
    }
}
