public import Foundation
public import HTTPTypes

/// Something that sends one prepared request over the wire and returns the whole response.
///
/// A transport does one hop: it does not follow redirects, retry, or check the security
/// policy (``HTTPClient`` does those, the same way for every transport). It must:
/// - end within ``PreparedRequest/timeout`` with ``TransportFailure/Kind/timedOut``;
/// - stop reading beyond ``PreparedRequest/maxResponseSize`` with
///   ``RequestError/bodyTooLarge(_:limit:)``;
/// - abort the request on the wire when its task is cancelled, and throw
///   ``RequestError/cancelled``;
/// - report connection problems as ``RequestError/transport(_:)`` with their cause.
///
/// Courier ships `AsyncHTTPClientTransport` (module `CourierAsyncHTTPClient`, the default on
/// Linux), ``URLSessionTransport``, and `StubTransport` for tests (module `CourierTesting`).
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response with its complete body.
    ///
    /// - Throws: ``RequestError`` for every failure; HTTP error statuses are *not* errors here.
    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse

    /// Sends the request and hands the body to `receive` piece by piece as it arrives, with the
    /// response's head, so a large body is never in memory at once; returns the head.
    ///
    /// ``PreparedRequest/maxResponseSize`` does not apply: the receiver decides what to keep.
    /// The default implementation sends with ``send(_:)`` and hands the body over whole;
    /// transports that can stream (AsyncHTTPClient's) implement it.
    func send(
        _ request: PreparedRequest,
        streamingBodyTo receive: @escaping @Sendable (HTTPResponse, Data) async throws(RequestError) -> Void
    ) async throws(RequestError) -> HTTPResponse
}

extension HTTPTransport {
    /// Sends with ``send(_:)`` and hands the whole body to `receive` at once.
    public func send(
        _ request: PreparedRequest,
        streamingBodyTo receive: @escaping @Sendable (HTTPResponse, Data) async throws(RequestError) -> Void
    ) async throws(RequestError) -> HTTPResponse {
        let response = try await send(request)
        if !response.body.isEmpty { try await receive(response.head, response.body) }
        return response.head
    }
}
