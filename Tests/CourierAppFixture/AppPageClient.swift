public import Courier
import CourierTestServer
public import Foundation
public import HTTPTypes

/// A client of `courier app` that opened its page first, so it has the run's token, as the
/// page's own scripts do.
public struct AppPageClient: Sendable {
    /// A client whose base URL is the app.
    public let client: HTTPClient
    /// The run's token, from the page.
    public let token: String
    /// The app's origin, `http://127.0.0.1:PORT`.
    public let origin: String

    /// Opens the page of the app at `url` and keeps its token.
    public static func open(_ url: URL, transport: any HTTPTransport) async throws -> AppPageClient {
        let client = HTTPClient(transport: transport, configuration: .init(baseURL: url, timeout: .seconds(60)))
        let page = String(decoding: try await client.send(Endpoint<Data>(scheme: "http", path: "/")), as: UTF8.self)
        let marker = #"name="courier-token" content=""#
        guard let start = page.range(of: marker)?.upperBound else { throw WebDriverError("the page has no token") }
        let token = String(page[start...].prefix { $0 != "\"" })
        return AppPageClient(client: client, token: token, origin: url.absoluteString)
    }

    /// The response to `method path` with the token (unless `token` is false) and `headers`.
    public func response(
        _ method: HTTPRequest.Method = .get,
        _ path: String,
        token: Bool = true,
        headers: HTTPFields = [:],
        body: String? = nil
    ) async throws -> DecodedResponse<Data> {
        var fields = headers
        if token { fields[HTTPField.Name("X-Courier-Token")!] = self.token }
        let endpoint = Endpoint<Data>(
            method: method,
            url: URL(string: origin + path) ?? URL(fileURLWithPath: "/"),
            headers: fields,
            body: body.map { .data(Data($0.utf8), contentType: "application/json") }
        )
        return try await client.response(for: endpoint)
    }

    /// The status of `method path`, whether it succeeded or not.
    public func status(
        _ method: HTTPRequest.Method = .get,
        _ path: String,
        token: Bool = true,
        headers: HTTPFields = [:],
        body: String? = nil
    ) async throws -> Int {
        do {
            return try await response(method, path, token: token, headers: headers, body: body).head.status.code
        } catch let error as RequestError {
            guard let failure = error.httpFailure else { throw error }
            return failure.status
        }
    }
}
