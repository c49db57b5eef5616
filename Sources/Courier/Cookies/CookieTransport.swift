import Foundation
import HTTPTypes

/// The stage that gives each request, redirect hops included, the cookies of a ``CookieStore``
/// that match its URL, and stores the `Set-Cookie` fields of each response: a transport around
/// the client's own, so that it runs once a hop, inside the redirects.
struct CookieTransport: HTTPTransport {
    let base: any HTTPTransport
    let store: CookieStore

    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        let (request, carried) = await withCookies(request)
        var response = try await base.send(request)
        await receive(response.head, for: request)
        response.carriedStoredCookies = carried
        return response
    }

    func send(
        _ request: PreparedRequest,
        head: @escaping @Sendable (HTTPResponse) async throws(RequestError) -> Void,
        body: @escaping @Sendable (Data) async throws(RequestError) -> Void
    ) async throws(RequestError) {
        let (request, _) = await withCookies(request)
        try await base.send(
            request,
            head: { response throws(RequestError) in
                await receive(response, for: request)
                try await head(response)
            },
            body: body
        )
    }

    /// `request` with the store's cookies after any `Cookie` field it has; whether it got any.
    private func withCookies(_ request: PreparedRequest) async -> (PreparedRequest, Bool) {
        let target = Self.target(of: request)
        guard let header = await store.header(scheme: target.scheme, host: target.host, path: target.path) else {
            return (request, false)
        }
        var request = request
        let given = request.head.headerFields[values: .cookie]
        request.head.headerFields[.cookie] = (given + [header]).joined(separator: "; ")
        return (request, true)
    }

    private func receive(_ response: HTTPResponse, for request: PreparedRequest) async {
        let fields = response.headerFields[values: .setCookie]
        guard !fields.isEmpty else { return }
        let target = Self.target(of: request)
        await store.receive(fields, scheme: target.scheme, host: target.host, path: target.path)
    }

    private static func target(of request: PreparedRequest) -> (scheme: String, host: String, path: String) {
        (request.head.scheme ?? "https", request.host, request.head.path ?? "/")
    }
}
