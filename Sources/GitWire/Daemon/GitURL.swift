/// A `git://host[:port]/path` address, checked so that nothing in it can change the request.
public struct GitURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address (IPv6 without brackets).
    public var host: String
    /// The port; 9418 by default.
    public var port: Int
    /// The repository path, starting with `/`.
    public var path: String

    /// The default port of `git daemon`.
    public static let defaultPort = 9418

    /// Parses `git://host[:port]/path`.
    ///
    /// - Throws: ``GitWireError/invalidURL(_:reason:)`` for another scheme, a missing host or
    ///   path, a bad port, or a NUL, newline or other control byte anywhere in it.
    public init(_ text: String) throws(GitWireError) {
        // Messages never show what could be a password.
        let shown = GitHTTPURL.withoutUserInfo(text)
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalidURL(
                shown.debugDescription,
                reason: "it contains a control character (NUL, newline…)"
            )
        }
        guard text.hasPrefix("git://") else { throw .invalidURL(shown, reason: "only git:// is supported") }
        let rest = text.dropFirst(6)
        guard let slash = rest.firstIndex(of: "/") else {
            throw .invalidURL(shown, reason: "there is no repository path")
        }
        var authority = rest[..<slash]
        guard !authority.utf8.contains(UInt8(ascii: "@")) else {
            throw .invalidURL(shown, reason: "git:// has no user or password; leave them out of the address")
        }
        let path = String(rest[slash...])
        var port = Self.defaultPort
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65535).contains(value) else {
                    throw .invalidURL(shown, reason: "the port is not a number from 1 to 65535")
                }
                port = value
            }
            authority = authority[authority.index(after: authority.startIndex)..<close]
        } else if let colon = authority.lastIndex(of: ":") {
            guard let value = Int(authority[authority.index(after: colon)...]), (1...65535).contains(value) else {
                throw .invalidURL(shown, reason: "the port is not a number from 1 to 65535")
            }
            port = value
            authority = authority[..<colon]
        }
        guard !authority.isEmpty else { throw .invalidURL(shown, reason: "there is no host") }
        guard path.count > 1 else { throw .invalidURL(shown, reason: "there is no repository path") }
        self.host = String(authority)
        self.port = port
        self.path = path
    }

    /// `git://host:port/path`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "git://\(shownHost)\(port == Self.defaultPort ? "" : ":\(port)")\(path)"
    }

    /// The first packet of a `git-upload-pack` request over `git://`: the path, the host
    /// parameter (with the port when it is not the default), and `version=2` when asked.
    public func uploadPackRequest(protocolVersion: Int) throws(PktLineError) -> [UInt8] {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        var payload = Array("git-upload-pack \(path)".utf8) + [0]
        payload += Array("host=\(shownHost)\(port == Self.defaultPort ? "" : ":\(port)")".utf8) + [0]
        if protocolVersion == 2 { payload += [0] + Array("version=2".utf8) + [0] }
        return try PktLine.data(payload).encoded()
    }
}
