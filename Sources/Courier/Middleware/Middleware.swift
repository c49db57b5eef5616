/// A step around every request a client sends: it may change the request, send it any number
/// of times through `next`, and inspect or change the response.
///
/// ```swift
/// struct RequestID: Middleware {
///     func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
///         var request = request
///         request.head.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
///         return try await next(request)
///     }
/// }
/// ```
///
/// Middleware runs once per call, outside redirects: a redirect's hops are not seen here.
///
/// For a streamed response (``HTTPClient/stream(_:timeout:idleTimeout:)``) the body is still
/// arriving when `next` returns, and ``RawResponse/body`` is empty: pass the response on (changing
/// its head is fine) to keep the stream. A middleware that returns a `RawResponse` of its own
/// answers with that response's body instead, and the stream is cancelled.
public protocol Middleware: Sendable {
    /// Sends the request on to the rest of the chain.
    typealias Next = @Sendable (PreparedRequest) async throws(RequestError) -> RawResponse

    /// Handles one request.
    ///
    /// - Parameters:
    ///   - request: The request as the previous step left it.
    ///   - next: The rest of the chain, ending at the transport.
    func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse
}
