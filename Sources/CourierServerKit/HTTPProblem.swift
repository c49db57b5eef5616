public import Courier
import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore

/// An error answer with a problem-details body (RFC 9457, `application/problem+json`): the one
/// form every Courier server answers errors in.
///
/// Throw it from a route, or return its ``response`` from code that answers directly:
///
/// ```swift
/// router.get("/books/:id") { _, context -> String in
///     throw HTTPProblem(.notFound, detail: "No book \(context.parameters.get("id") ?? "").")
/// }
/// ```
public struct HTTPProblem: HTTPResponseError, Sendable {
    /// The document sent.
    public var details: ProblemDetails
    /// Header fields the answer carries besides its content type and `Cache-Control: no-store`
    /// (`Allow` for a 405, `Retry-After` for a 503).
    public var headers: HTTPFields

    /// The status, from ``details``.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: details.status) }

    /// A problem whose title is the status's reason phrase and whose `detail` says what
    /// happened and what to do.
    public init(
        _ status: HTTPResponse.Status,
        detail: String,
        errors: [ProblemDetails.InvalidParameter]? = nil,
        headers: HTTPFields = [:]
    ) {
        self.details = ProblemDetails(title: status.reasonPhrase, status: status.code, detail: detail, errors: errors)
        self.headers = headers
    }

    /// The answer: the document as compact JSON, never stored by caches.
    public var response: Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A document of strings and integers always encodes; the fallback keeps the status.
        let body = (try? encoder.encode(details)) ?? Data(#"{"status":\#(details.status)}"#.utf8)
        var fields = headers
        fields[.contentType] = ProblemDetails.mediaType
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// ``response``, for Hummingbird.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }
}
