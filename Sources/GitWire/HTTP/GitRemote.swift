/// A repository address of either transport: `git://` (git's own protocol) or `https://` /
/// `http://` (git's smart HTTP).
///
/// ```swift
/// switch try GitRemote("https://github.com/apple/swift-nio.git") {
/// case .daemon(let url): print("git daemon at", url.host)
/// case .http(let url): print("smart HTTP at", url)
/// }
/// ```
public enum GitRemote: Sendable, Hashable, CustomStringConvertible {
    /// `git://host[:port]/path`.
    case daemon(GitURL)
    /// `https://…` or `http://…`.
    case http(GitHTTPURL)

    /// Parses `text` by its scheme.
    ///
    /// - Throws: ``GitWireError/invalidURL(_:reason:)`` for another scheme, or what
    ///   ``GitURL/init(_:)`` or ``GitHTTPURL/init(_:)`` throw.
    public init(_ text: String) throws(GitWireError) {
        let scheme = text.prefix { $0 != ":" }.lowercased()
        switch scheme {
        case "git": self = .daemon(try GitURL(text))
        case "https", "http": self = .http(try GitHTTPURL(text))
        default:
            // Shown without what could be a password, and on one line.
            let shown = GitHTTPURL.withoutUserInfo(text)
            throw .invalidURL(
                shown.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) ? shown.debugDescription : shown,
                reason: "use git://, https:// or http://"
            )
        }
    }

    /// The address, without credentials.
    public var description: String {
        switch self {
        case .daemon(let url): url.description
        case .http(let url): url.description
        }
    }
}
