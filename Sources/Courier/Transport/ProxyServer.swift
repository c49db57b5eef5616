import Foundation

/// An HTTP proxy: its host and port, and the credentials it asks for, which go to the proxy
/// only (`Proxy-Authorization`), never to an origin.
///
/// ```swift
/// let proxy = try ProxyServer(url: "http://me:secret@proxy.example:3128")
/// print(proxy)   // http://REDACTED@proxy.example:3128
/// ```
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A user name and password for the proxy; printed, dumped or logged as `REDACTED`.
    public struct Credentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
        CustomReflectable
    {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String

        /// Credentials for a proxy.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        /// `REDACTED`: never the user name or password.
        public var description: String { "REDACTED" }
        /// `REDACTED`.
        public var debugDescription: String { description }
        /// No children: `dump` shows `REDACTED`.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }

    /// The proxy's host name or IP address (without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// What the proxy asks for, if anything.
    public var credentials: Credentials?

    /// A proxy at `host`:`port`.
    public init(host: String, port: Int, credentials: Credentials? = nil) {
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// The proxy a URL names, as curl reads one: `http://[user:password@]host[:port]`, the
    /// scheme optional, the port 1080 when none is given, user and password percent-decoded.
    ///
    /// - Throws: ``ProxyError`` for another scheme (only HTTP proxies are supported), no host,
    ///   a port outside 1…65535, or anything after the port.
    public init(url text: String) throws(ProxyError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        func refused(_ reason: String) -> ProxyError { ProxyError(variable: nil, reason: reason) }
        guard let components = URLComponents(string: withScheme) else { throw refused("it is not a URL") }
        guard components.scheme?.lowercased() == "http" else {
            throw refused("only HTTP proxies (http://) are supported, not \(components.scheme ?? "this scheme")")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw refused("it names no host") }
        if let problem = RequestTarget.problem(withHost: components.encodedHost ?? host) { throw refused(problem) }
        let port = components.port ?? 1080
        guard (1...65535).contains(port) else { throw refused("the port \(port) is outside 1…65535") }
        guard ["", "/"].contains(components.percentEncodedPath), components.percentEncodedQuery == nil,
            components.percentEncodedFragment == nil
        else { throw refused("a proxy URL has nothing after the port") }
        self.host = host
        self.port = port
        if let user = components.user {
            credentials = Credentials(user: user, password: components.password ?? "")
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// `http://host:port`, with `REDACTED@` for credentials: never the password.
    public var description: String {
        let host = host.contains(":") ? "[\(host)]" : host
        return "http://\(credentials == nil ? "" : "REDACTED@")\(host):\(port)"
    }
}

/// A proxy URL that cannot be used: what is wrong with it, and where it came from.
public struct ProxyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The environment variable it came from, if it came from one.
    public var variable: String?
    /// What is wrong with it.
    public var reason: String

    /// A proxy error.
    public init(variable: String?, reason: String) {
        self.variable = variable
        self.reason = reason
    }

    /// One line for a person, which never repeats the URL (it may hold a password).
    public var description: String {
        let place = variable.map { " in \($0)" } ?? ""
        return "The proxy URL\(place) cannot be used: \(reason). Give one like http://proxy.example:3128."
    }
}
