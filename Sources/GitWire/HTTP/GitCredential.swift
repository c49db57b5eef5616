import Foundation

/// A user name and a password or token for a repository served over HTTP, sent with HTTP Basic
/// authentication as git sends it: once the repository asks (401), and only to its own origin.
///
/// Its descriptions and mirror leave the password out, so printing or logging a credential
/// shows no secret.
///
/// ```swift
/// let credential = GitCredential(token: token)  // user x-access-token, as hosts take tokens
/// let client = HTTPGitClient(client: client, credential: credential)
/// ```
public struct GitCredential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The user name.
    public var username: String
    /// The password or token.
    public var password: String

    /// The user name hosts accept with an access token when the user is not named:
    /// `x-access-token` (GitHub, GitLab and Gitea take any user name with a token).
    public static let tokenUsername = "x-access-token"

    /// A user name and password.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// An access token, for `username` or ``tokenUsername``.
    public init(token: String, username: String? = nil) {
        self.init(username: username ?? Self.tokenUsername, password: token)
    }

    /// `GitCredential(username: alice, password: redacted)`.
    public var description: String { "GitCredential(username: \(username), password: redacted)" }

    /// As ``description``.
    public var debugDescription: String { description }

    /// The user name only.
    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "redacted"]) }

    /// The `Authorization` field's value: `Basic` and the base64 of `user:password`.
    var authorization: String {
        "Basic " + Data((username + ":" + password).utf8).base64EncodedString()
    }
}
