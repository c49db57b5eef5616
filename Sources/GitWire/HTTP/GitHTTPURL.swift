public import Foundation

/// An `https://` or `http://` repository address, as `git clone` takes it: what git's smart HTTP
/// protocol appends `/info/refs` and `/git-upload-pack` to.
///
/// A user name in the address (`https://alice@example.com/repo.git`) is kept apart, for the
/// credential; a password is refused, since an address shows in process lists, histories and
/// logs. The address shown in messages never holds either.
///
/// ```swift
/// let url = try GitHTTPURL("https://github.com/apple/swift-nio.git")
/// print(url.infoRefs)  // https://github.com/apple/swift-nio.git/info/refs?service=git-upload-pack
/// ```
public struct GitHTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// The repository's address without user name or trailing slash.
    public let url: URL
    /// The user name given in the address, if any, percent-decoded.
    public let username: String?

    /// Parses `text`.
    ///
    /// - Throws: ``GitWireError/invalidURL(_:reason:)`` for another scheme, no host or path, a
    ///   password, a query or fragment, or a control byte anywhere in it. The message never
    ///   holds the text after the scheme's `//` up to the host, where a password would be.
    public init(_ text: String) throws(GitWireError) {
        let shown = Self.withoutUserInfo(text)
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalidURL(shown.debugDescription, reason: "it contains a control character (NUL, newline…)")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http"
        else {
            throw .invalidURL(shown, reason: "it is not an http:// or https:// URL")
        }
        // Decoded, the user name goes into a credential helper's lines and a Basic credential:
        // a line break there could ask the helper about another host (CVE-2020-5260), a colon
        // would end the user name early.
        if let user = components.user, user.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x3A }) {
            throw .invalidURL(shown, reason: "its user name holds a control character or a colon once decoded")
        }
        guard components.percentEncodedPassword == nil else {
            throw .invalidURL(
                shown,
                reason: "it holds a password, which process lists and shell histories would show; give it as a "
                    + "credential instead"
            )
        }
        guard let host = components.encodedHost, !host.isEmpty else {
            throw .invalidURL(shown, reason: "there is no host")
        }
        // As the HTTP client reads hosts: no percent-encoded byte, which could decode to a line
        // break in a credential helper's question.
        guard !host.contains("%") else {
            throw .invalidURL(shown, reason: "its host holds a percent-encoded byte")
        }
        guard components.percentEncodedQuery == nil, components.percentEncodedFragment == nil else {
            throw .invalidURL(shown, reason: "a repository address has no query (?) or fragment (#)")
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        guard !path.isEmpty else { throw .invalidURL(shown, reason: "there is no repository path") }
        var base = URLComponents()
        base.scheme = scheme
        base.percentEncodedHost = host
        base.port = components.port
        base.percentEncodedPath = path
        guard let url = base.url else { throw .invalidURL(shown, reason: "it is not a valid URL") }
        self.url = url
        self.username = components.user.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The address, without user name.
    public var description: String { url.absoluteString }

    /// Where the refs are advertised: `…/info/refs?service=git-upload-pack`.
    public var infoRefs: URL { Self.infoRefs(of: url) }

    /// Where `ls-refs` is posted (protocol v2): `…/git-upload-pack`.
    public var uploadPack: URL { Self.uploadPack(of: url) }

    static func uploadPack(of base: URL) -> URL {
        base.appendingPathComponent("git-upload-pack")
    }

    static func infoRefs(of base: URL) -> URL {
        URL(string: base.absoluteString + "/info/refs?service=git-upload-pack") ?? base
    }

    /// The repository's address after a redirect of its `info/refs` request, as git takes it: the
    /// answering URL less `/info/refs?service=git-upload-pack`; `nil` when that is not how it ends.
    static func base(redirectedTo answered: String) -> URL? {
        let suffix = "/info/refs?service=git-upload-pack"
        guard answered.hasSuffix(suffix) else { return nil }
        return URL(string: String(answered.dropLast(suffix.count)))
    }

    /// `text` for messages: when it holds an `@`, everything between the scheme and the last
    /// `@` is left out, wherever the authority would end, so that no password survives
    /// (`https://…@host/path`). Read on bytes: a combining mark after `@` hides nothing.
    static func withoutUserInfo(_ text: String) -> String {
        let bytes = text.utf8
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return text }
        var prefixEnd = bytes.startIndex
        if let slashes = bytes.indices.first(where: { index in
            index < at && bytes[index] == UInt8(ascii: "/") && bytes.index(after: index) < at
                && bytes[bytes.index(after: index)] == UInt8(ascii: "/")
        }) {
            prefixEnd = bytes.index(slashes, offsetBy: 2)
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon < at {
            prefixEnd = bytes.index(after: colon)
        }
        let prefix = String(decoding: bytes[..<prefixEnd], as: UTF8.self)
        let rest = String(decoding: bytes[bytes.index(after: at)...], as: UTF8.self)
        return prefix + "…@" + rest
    }
}
