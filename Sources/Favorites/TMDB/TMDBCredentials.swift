public import Courier
import Foundation

/// How Courier proves to TMDB who is asking: a v4 read access token or a v3 API key.
///
/// ```swift
/// guard let credentials = TMDBCredentials(environment: ProcessInfo.processInfo.environment) else {
///     print(TMDBCredentials.howToGetOne)
///     return
/// }
/// ```
public enum TMDBCredentials: Sendable, Hashable {
    /// A v4 API read access token, sent as `Authorization: Bearer …`.
    case accessToken(String)
    /// A v3 API key, sent as the `api_key` query item.
    case apiKey(String)

    /// The environment variable holding a read access token.
    public static let accessTokenVariable = "TMDB_ACCESS_TOKEN"
    /// The environment variable holding an API key.
    public static let apiKeyVariable = "TMDB_API_KEY"

    /// The credentials in `TMDB_ACCESS_TOKEN`, else `TMDB_API_KEY`; `nil` when neither is set
    /// to something other than spaces.
    public init?(environment: [String: String]) {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
            else { return nil }
            return text
        }
        if let token = value(Self.accessTokenVariable) {
            self = .accessToken(token)
        } else if let key = value(Self.apiKeyVariable) {
            self = .apiKey(key)
        } else {
            return nil
        }
    }

    /// The middleware that adds these credentials to every request.
    public var authentication: Authentication {
        switch self {
        case .accessToken(let token): .bearer(token)
        case .apiKey(let key): .apiKey(key, queryItem: "api_key")
        }
    }

    /// What to do without credentials: where to get them and how to pass them. A program adds
    /// how its own users work without them.
    public static let howToGetOne = """
        TMDB needs credentials. Create a free account at https://www.themoviedb.org/signup, then \
        copy the "API Read Access Token" (or the "API Key") from https://www.themoviedb.org/settings/api \
        and run: export \(accessTokenVariable)=<token> (or export \(apiKeyVariable)=<key>).
        """
}
