import Courier
import CourierServerKit
import Foundation
import HTTPTypes
import Hummingbird

/// The rules that keep a local app from being a target: it answers only to its own names, and
/// only its own page may use its API.
///
/// - **Host**: a request whose `Host` is not a loopback name (or the one name the app was
///   told to serve under) is refused, so a web page whose domain an attacker re-points at
///   127.0.0.1 (DNS rebinding) cannot reach it.
/// - **The page** (`/`, `/app.js`, `/app.css`) is open to anyone who passes the Host check;
///   every other path is the API.
/// - **API reads** (`GET`) carry the run's token, in the `X-Courier-Token` field or in
///   the `SameSite=Strict` cookie the page set; a request another site made (`Sec-Fetch-Site`
///   other than `same-origin`) is refused.
/// - **API changes** (any other method) must carry the token in the field — a cookie alone is
///   not enough — and an `Origin`, when present, that is the app's own.
struct AppGuard<Context: RequestContext>: RouterMiddleware {
    let token: AppToken
    /// The names the app answers to.
    let hosts: HostGuard<Context>

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard hosts.authority(of: request) != nil, let authority = request.head.authority else {
            return HostGuard<Context>.misdirected.response
        }
        // Only the page and its two files are open; every other path — `/api/…` however it is
        // spelled (`//api/…` reaches the same handler) — is the API.
        if Self.pagePaths.contains(request.uri.path), [.get, .head].contains(request.method) {
            return try await next(request, context)
        }
        let isChange = ![.get, .head].contains(request.method)
        if let site = request.headers[.secFetchSite], site != "same-origin" {
            return AppResponse.problem(.forbidden, "Only the app's own page may use its API (\(site) request).")
        }
        if isChange {
            guard token.matches(request.headers[.courierToken]) else {
                return AppResponse.problem(.forbidden, "A change needs the token of this run, which only its page has.")
            }
            if let origin = request.headers[.origin], origin != "http://\(authority)" {
                return AppResponse.problem(.forbidden, "A change from another origin is refused.")
            }
        } else {
            let cookie = cookie(named: token.cookieName(for: authority), in: request)
            guard token.matches(request.headers[.courierToken]) || token.matches(cookie) else {
                return AppResponse.problem(
                    .forbidden,
                    "Open the app's page first: its API needs the token of this run."
                )
            }
            // The page reads its API with fetch and EventSource only: an image, a frame or a
            // link that names an API address (say, in a feed's content) carries the cookie
            // but is not the page asking.
            if let destination = request.headers[.secFetchDest], destination != "empty" {
                return AppResponse.problem(
                    .forbidden,
                    "Only the app's page may read its API, not an \(destination) it shows."
                )
            }
        }
        return try await next(request, context)
    }

    /// The paths anyone may load: the page, its script and its style.
    static var pagePaths: Set<String> { ["/", "/app.js", "/app.css"] }

    private func cookie(named name: String, in request: Request) -> String? {
        for field in request.headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}

extension HTTPField.Name {
    /// `X-Courier-Token`: the run's token, sent by the page's scripts.
    static let courierToken = Self("X-Courier-Token")!
}
