import Foundation
import HTTPTypes

extension HTTPClient {
    /// Sends the endpoint and returns the response as soon as its head arrives, with a body to
    /// read as it arrives.
    ///
    /// ```swift
    /// let response = try await client.stream(Endpoint<Data>(url: url), idleTimeout: .seconds(30))
    /// for try await chunk in response.body {
    ///     try handle.write(contentsOf: chunk)
    /// }
    /// ```
    ///
    /// The request goes through the middleware, the security policy and the redirects as with
    /// ``HTTPClient/send(_:)->Value``, and an error status throws the same ``RequestError`` (with the start of the
    /// error page, read up to 64 KiB). ``Retry`` applies until the head arrives, never once the
    /// body is flowing. The client's ``HTTPClient/Configuration/cache`` is bypassed: a streamed response is neither served from nor
    /// stored in the cache. The client's `timeout` and `maxResponseSize` do not apply; these
    /// limits do:
    ///
    /// - Parameters:
    ///   - endpoint: The request to send; its response type is not used.
    ///   - timeout: The longest the whole exchange may take, redirects and body included,
    ///     however slowly the caller reads; `nil` (the default) for none, since a stream of
    ///     events may never end: then only `idleTimeout` bounds it.
    ///   - idleTimeout: The longest silence before the head and between pieces of the body
    ///     (``TransportFailure/Kind/timedOut``); `nil` for none. A reader that is slow to take
    ///     the bytes does not count as silence.
    /// - Throws: ``RequestError``, as ``HTTPClient/send(_:)->Value`` throws before the body.
    public func stream<Value>(
        _ endpoint: Endpoint<Value>,
        timeout: Duration? = nil,
        idleTimeout: Duration? = .seconds(60)
    ) async throws(RequestError) -> StreamedResponse {
        var request = try prepare(endpoint)
        request.timeout = timeout
        request.maxResponseSize = .max
        request.cachePolicy = .reloadIgnoringCache
        let pipeline = Self.pipeline(
            to: StreamSinkTransport(base: transport, idleTimeout: idleTimeout),
            configuration: configuration,
            cache: .bypassed
        )
        let raw = try await pipeline(request)
        guard (200..<300).contains(raw.status) else {
            raw.stream?.cancel()
            throw Self.failure(for: raw, request: request.summary)
        }
        if let accepted = endpoint.acceptedContentTypes, let contentType = raw.head.headerFields[.contentType],
            !MediaType.matches(contentType, anyOf: accepted)
        {
            raw.stream?.cancel()
            throw .unexpectedContentType(HTTPFailure(raw, request: request.summary), expected: accepted)
        }
        // A middleware that answered by itself hands over a whole body.
        let body =
            raw.stream
            ?? StreamedResponse.Body(
                channel: BodyChannel(request: request.summary, head: raw.head, body: raw.body),
                request: request.summary
            )
        return StreamedResponse(head: raw.head, url: raw.url, body: body)
    }
}
