public import Courier
public import CourierCassettes

/// A service answered from a recording, for the app with no network: `ReplayTransport` with
/// a message a person can act on when the recording has no answer.
///
/// ```swift
/// let store = HTTPClient(transport: OfflineTransport(try AppExamples.storeRecording()), configuration: .iTunesStore())
/// ```
public struct OfflineTransport: HTTPTransport {
    private let replay: ReplayTransport

    /// Answers from `recording`.
    public init(_ recording: Cassette) {
        replay = ReplayTransport(recording)
    }

    /// The recorded answer to `request`, or a transport failure saying the recording has none.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        do {
            return try await replay.send(request)
        } catch .transport {
            throw .transport(
                TransportFailure(
                    .other,
                    request: request.summary,
                    detail: "this offline recording has no answer for it"
                )
            )
        }
    }
}
