public import Courier
import Foundation
import HTTPTypes
import Synchronization

/// Middleware that records every exchange into a ``Cassette``, credentials redacted: header
/// fields, query items, form fields and JSON members named like secrets (`Authorization`,
/// `X-API-Key`, `api_key`, `password`, `client_secret`, `access_token`…), in requests and in
/// responses, are written as `REDACTED`.
///
/// ```swift
/// let recorder = CassetteRecorder()
/// let client = HTTPClient(transport: transport, configuration: .init(middleware: [recorder]))
/// _ = try await client.send(endpoint)
/// try recorder.cassette.write(to: URL(fileURLWithPath: "Fixtures/movies.json"))
/// ```
public final class CassetteRecorder: Middleware, Sendable {
    private let recorded: Mutex<Cassette>

    /// A recorder that adds to `cassette` (an empty one by default).
    public init(appendingTo cassette: Cassette = Cassette()) {
        recorded = Mutex(cassette)
    }

    /// What has been recorded so far.
    public var cassette: Cassette { recorded.withLock { $0 } }

    /// Sends the request on and records it with its response.
    public func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        let response = try await next(request)
        let interaction = Cassette.Interaction(
            request: Cassette.Request(
                method: request.head.method.rawValue,
                url: Redaction.redactingURL(request.url),
                headers: Self.pairs(request.head.headerFields),
                body: request.body.map {
                    Cassette.Body(Redaction.redactingBody($0, contentType: request.head.headerFields[.contentType]))
                }
            ),
            response: Cassette.Response(
                status: response.status,
                headers: Self.pairs(response.head.headerFields),
                body: response.body.isEmpty
                    ? nil
                    : Cassette.Body(
                        Redaction.redactingBody(response.body, contentType: response.head.headerFields[.contentType])
                    )
            )
        )
        recorded.withLock { $0.interactions.append(interaction) }
        return response
    }

    static func pairs(_ fields: HTTPFields) -> [[String]] {
        fields.map { [$0.name.rawName, Redaction.displayedValue(of: $0)] }
    }
}
