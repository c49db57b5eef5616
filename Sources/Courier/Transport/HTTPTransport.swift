public import Foundation
public import HTTPTypes

/// Something that sends one prepared request over the wire and returns the response.
///
/// A transport does one hop: it does not follow redirects, retry, or check the security
/// policy (``HTTPClient`` does those, the same way for every transport). It must:
/// - end within ``PreparedRequest/timeout`` with ``TransportFailure/Kind/timedOut``;
/// - stop reading beyond ``PreparedRequest/maxResponseSize`` with
///   ``RequestError/bodyTooLarge(_:limit:)`` (except when streaming, where the receiver decides);
/// - abort the request on the wire when its task is cancelled, and throw
///   ``RequestError/cancelled``;
/// - report connection problems as ``RequestError/transport(_:)`` with their cause;
/// - hand over the body with the content codings the request accepted undone (``HTTPClient``
///   asks for gzip and deflate by default), removing `Content-Encoding` and `Content-Length`
///   from the head, and fail a body that does not decode with
///   ``TransportFailure/Kind/undecodableBody``. A transport that cannot decode is used with
///   ``HTTPClient/Configuration/acceptedEncodings`` set to `[]`.
///
/// Courier ships `AsyncHTTPClientTransport` (module `CourierAsyncHTTPClient`, the default on
/// Linux), `URLSessionTransport` (module `CourierURLSession`), and `StubTransport` for tests (module `CourierTesting`).
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response with its complete body.
    ///
    /// - Throws: ``RequestError`` for every failure; HTTP error statuses are *not* errors here.
    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse

    /// Sends the request and hands the response over as it arrives: `head` once, as soon as the
    /// status and header fields are in, then `body` with each piece of the body in order.
    /// Returns when the body has ended.
    ///
    /// Each call waits for the receiver, so a slow receiver slows the transfer instead of
    /// filling memory. ``PreparedRequest/maxResponseSize`` does not apply: the receiver decides
    /// what to keep. An error the receiver throws ends the exchange (the connection is closed
    /// when the body was not read to its end) and is rethrown.
    ///
    /// The default implementation sends with ``send(_:)`` and hands the body over whole;
    /// transports that can stream implement it.
    func send(
        _ request: PreparedRequest,
        head: @escaping @Sendable (HTTPResponse) async throws(RequestError) -> Void,
        body: @escaping @Sendable (Data) async throws(RequestError) -> Void
    ) async throws(RequestError)
}

extension HTTPTransport {
    /// Sends with ``send(_:)`` and hands the whole body over at once.
    public func send(
        _ request: PreparedRequest,
        head: @escaping @Sendable (HTTPResponse) async throws(RequestError) -> Void,
        body: @escaping @Sendable (Data) async throws(RequestError) -> Void
    ) async throws(RequestError) {
        var request = request
        request.maxResponseSize = .max
        let response = try await send(request)
        try await head(response.head)
        if !response.body.isEmpty { try await body(response.body) }
    }

}
