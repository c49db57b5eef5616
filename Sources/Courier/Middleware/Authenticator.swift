/// Credentials that expire and renew: an OAuth access token, a session, a signed URL.
///
/// You say how to put the credential on a request (`apply`) and how to get a new one
/// (`refresh`). When a request is refused with `401 Unauthorized`, or before it is sent when
/// `needsRefresh` says the credential's known expiry has come, the credential is renewed
/// **once**, however many requests are waiting: every request refused meanwhile is sent again,
/// once, with the new credential. A request refused again is answered with that 401 — never a
/// loop of renewals. When `refresh` fails, every waiting request fails with its error: a
/// ``RequestError`` as it is (the token endpoint's own failure), anything else as
/// ``RequestError/authentication(_:)``.
///
/// With a token that knows when it expires:
///
/// ```swift
/// struct Token: Sendable {
///     var access: String
///     var refresh: String
///     var expires: Date
/// }
/// ```
///
/// an authenticator renews it with a client of its own (`identity`) for the token endpoint:
///
/// ```swift
/// let tokens = Authenticator<Token>(
///     credential: savedToken,
///     apply: { token, request in request.head.headerFields[.authorization] = "Bearer \(token.access)" },
///     refresh: { expired in
///         guard let expired else { throw SignInRequired() }
///         return try await identity.send(OAuth.refresh(expired.refresh))
///     },
///     needsRefresh: { token in token.expires < Date.now.addingTimeInterval(30) }
/// )
/// let client = HTTPClient(transport: transport, configuration: .init(middleware: [tokens]))
/// ```
///
/// The article <doc:RenewingCredentials> has a complete OAuth 2 refresh-token client.
///
/// Copies of an authenticator share its credential and its renewal; give each account its own
/// authenticator. Put it before ``Retry`` in the middleware to have a renewed request retried
/// too; the client's cache comes after every middleware, so its rules see the credential. The credential goes
/// only where the request goes: header fields the redaction rule calls secret
/// (`Authorization`, …) are left behind when a redirect leaves the origin. A request whose body
/// cannot be read a second time (a stream) is not sent again: its 401 is the answer, and the
/// renewed credential serves the next request. A renewal is not cancelled when one of the
/// requests waiting for it is; the client `refresh` uses bounds its time.
public struct Authenticator<Credential: Sendable>: Middleware {
    private let state: CredentialState<Credential>
    private let apply: @Sendable (Credential, inout PreparedRequest) -> Void
    private let needsRefresh: @Sendable (Credential) -> Bool

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - credential: The credential to start with (one saved from an earlier run), or `nil` to
    ///     get one with `refresh` before the first request.
    ///   - apply: Puts the credential on a request: a header field, a query item.
    ///   - refresh: Gets a new credential, given the one refused or expired (`nil` at first).
    ///     Called once for all the requests waiting for it.
    ///   - needsRefresh: Whether a credential must be renewed before it is sent: its known expiry
    ///     has come. By default a credential is renewed only when refused.
    public init(
        credential: Credential? = nil,
        apply: @escaping @Sendable (Credential, inout PreparedRequest) -> Void,
        refresh: @escaping @Sendable (_ expired: Credential?) async throws -> Credential,
        needsRefresh: @escaping @Sendable (Credential) -> Bool = { _ in false }
    ) {
        self.state = CredentialState(credential: credential, refresh: refresh)
        self.apply = apply
        self.needsRefresh = needsRefresh
    }

    /// Handles one request; see ``Middleware/send(_:next:)``.
    public func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        let needsRefresh = self.needsRefresh
        let state = self.state
        let issued = try await Self.obtain(for: request) { try await state.credential(isStale: needsRefresh) }
        let response = try await next(authorized(request, with: issued.credential))
        guard response.status == 401 else { return response }
        let renew = { () async throws -> CredentialState<Credential>.Issued in
            try await state.credential(replacing: issued)
        }
        guard request.streamedBody?.isReplayable ?? true else {
            // Not sent again, but renewed for the requests that follow; this one's answer is its 401.
            _ = try? await Self.obtain(for: request, renew)
            return response
        }
        let renewed = try await Self.obtain(for: request, renew)
        return try await next(authorized(request, with: renewed.credential))
    }

    private func authorized(_ request: PreparedRequest, with credential: Credential) -> PreparedRequest {
        var request = request
        apply(credential, &request)
        return request
    }

    /// The credential `get` returns, its failure as a ``RequestError``.
    private static func obtain(
        for request: PreparedRequest,
        _ get: () async throws -> CredentialState<Credential>.Issued
    ) async throws(RequestError) -> CredentialState<Credential>.Issued {
        do {
            return try await get()
        } catch let error as RequestError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            // The text of a caller's error may hold a URL with a secret in it.
            let reason = Redaction.redactingURLs(in: String(describing: error))
            throw .authentication(AuthenticationFailure(request: request.summary, reason: reason, cause: error))
        }
    }
}
