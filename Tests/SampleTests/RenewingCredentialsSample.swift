// The sample of the DocC article "Renewing credentials" (Courier.docc/RenewingCredentials.md):
// its types and function are top-level declarations there, as they are here.

import Courier
import Foundation
import HTTPTypes

// swift-format-ignore
/// The token endpoint's answer (RFC 6749 §5.1).
struct TokenResponse: Decodable, Sendable {
    var accessToken: String
    var refreshToken: String?
    var expiresIn: Int
}

/// What the app keeps between runs.
struct Token: Sendable {
    var access: String
    var refresh: String
    var expires: Date
}

/// There is no token to renew: the person must sign in.
struct SignInRequired: Error {}

enum OAuth {
    /// The refresh-token grant, a form posted to the token endpoint.
    static func refresh(_ refreshToken: String, clientID: String) -> Endpoint<TokenResponse> {
        Endpoint(
            method: .post,
            host: "auth.example.com",
            path: "/oauth/token",
            body: .form([("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID)])
        )
        .convertingFromSnakeCase()
    }
}

// swift-format-ignore
func makeClient(transport: any HTTPTransport, saved: Token?, save: @escaping @Sendable (Token) -> Void) -> HTTPClient {
    let identity = HTTPClient(transport: transport)
    let tokens = Authenticator<Token>(
        credential: saved,
        apply: { token, request in request.head.headerFields[.authorization] = "Bearer \(token.access)" },
        refresh: { expired in
            guard let expired else { throw SignInRequired() }
            let answer = try await identity.send(OAuth.refresh(expired.refresh, clientID: "my-app"))
            let token = Token(
                access: answer.accessToken,
                refresh: answer.refreshToken ?? expired.refresh,  // a service may rotate it
                expires: Date.now.addingTimeInterval(TimeInterval(answer.expiresIn))
            )
            save(token)
            return token
        },
        needsRefresh: { token in token.expires < Date.now.addingTimeInterval(30) }
    )
    return HTTPClient(transport: transport, configuration: .init(middleware: [tokens, Retry(maxAttempts: 3)]))
}
