public import Courier
import Foundation
import HTTPTypes

/// A transport that answers from a ``Cassette`` instead of the network, through a
/// ``CassettePlayer``: the same method, URL (secrets compared redacted) and body get the
/// recorded response.
///
/// ```swift
/// let transport = ReplayTransport(try Cassette.load(from: fixtureURL))
/// let client = HTTPClient(transport: transport)
/// ```
///
/// A request with no recording fails with a transport error that names it and lists what the
/// cassette holds.
public struct ReplayTransport: HTTPTransport {
    /// Picks the responses.
    public let player: CassettePlayer

    /// Replays `cassette`.
    public init(_ cassette: Cassette) {
        self.player = CassettePlayer(cassette)
    }

    /// The recorded response for `request`.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        guard
            let recorded = player.response(
                method: request.head.method.rawValue,
                url: request.url,
                body: request.body ?? Data(),
                contentType: request.head.headerFields[.contentType]
            )
        else {
            throw .transport(
                TransportFailure(
                    .other,
                    request: request.summary,
                    detail: "the cassette has no recording of it (it holds \(player.summary))"
                )
            )
        }
        guard Cassette.finalStatuses.contains(recorded.status) else {
            throw .transport(
                TransportFailure(
                    .other,
                    request: request.summary,
                    detail: "the cassette records status \(recorded.status), which is not a final HTTP status"
                )
            )
        }
        return RawResponse(
            head: HTTPResponse(status: .init(code: recorded.status), headerFields: recorded.headerFields),
            body: recorded.body?.data ?? Data(),
            url: request.url
        )
    }
}
