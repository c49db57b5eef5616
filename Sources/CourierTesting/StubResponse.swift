public import Courier
public import Foundation
public import HTTPTypes

/// What a ``StubTransport`` route answers: a response, optionally after a delay, or a failure.
public struct StubResponse: Sendable {
    /// The status.
    public var status: HTTPResponse.Status
    /// The header fields.
    public var headers: HTTPFields
    /// The body.
    public var body: Data
    /// How long to wait before answering; cancellation during the wait throws `cancelled`.
    public var delay: Duration?
    /// An error to throw instead of answering.
    public var failure: RequestError?

    /// Creates a response.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    // MARK: - Kinds of response

    /// A JSON body given as text.
    public static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Self {
        StubResponse(status: status, headers: [.contentType: "application/json"], body: Data(text.utf8))
    }

    /// A value encoded as JSON.
    public static func json<Value: Encodable>(encoding value: Value, status: HTTPResponse.Status = .ok) throws -> Self {
        StubResponse(status: status, headers: [.contentType: "application/json"], body: try JSONEncoder().encode(value))
    }

    /// A plain-text body.
    public static func text(
        _ text: String,
        status: HTTPResponse.Status = .ok,
        contentType: String = "text/plain"
    ) -> Self {
        StubResponse(status: status, headers: [.contentType: contentType], body: Data(text.utf8))
    }

    /// An empty body with `status`.
    public static func status(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Self {
        StubResponse(status: status, headers: headers)
    }

    /// Throws `error` instead of answering.
    public static func failure(_ error: RequestError) -> Self {
        var response = StubResponse()
        response.failure = error
        return response
    }

    /// A fixture file's bytes, with the content type its extension implies.
    public static func fixture(_ name: String, in fixtures: Fixtures, status: HTTPResponse.Status = .ok) throws -> Self
    {
        let url = try fixtures.url(name)
        let contentType = url.pathExtension == "json" ? "application/json" : "application/octet-stream"
        return StubResponse(status: status, headers: [.contentType: contentType], body: try fixtures.data(name))
    }

    /// The same response after `delay`.
    public func delayed(by delay: Duration) -> Self {
        var copy = self
        copy.delay = delay
        return copy
    }
}
