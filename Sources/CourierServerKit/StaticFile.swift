import Courier
public import HTTPTypes
public import Hummingbird
import NIOCore

/// A file held in memory and served with a strong entity tag, so that browsers revalidate it
/// cheaply (`Cache-Control: no-cache`, then `304 Not Modified` while it is unchanged).
///
/// ```swift
/// let page = StaticFile(bytes: Array("<!doctype html><title>Hi</title>".utf8), contentType: "text/html; charset=utf-8")
/// router.get("/") { request, _ in page.response(to: request) }
/// ```
public struct StaticFile: Sendable {
    private let body: ByteBuffer
    private let headers: HTTPFields
    /// The file's strong entity tag, quotes included: a hash of its bytes.
    public let entityTag: String

    /// A file of `bytes`, sent with `contentType`, `X-Content-Type-Options: nosniff` and
    /// `extraHeaders` (a `Content-Security-Policy`, say).
    public init(bytes: [UInt8], contentType: String, extraHeaders: HTTPFields = [:]) {
        body = ByteBuffer(bytes: bytes)
        entityTag = "\"\(String(FNV1a.hash(bytes), radix: 16))\""
        var headers = extraHeaders
        headers[.contentType] = contentType
        headers[.eTag] = entityTag
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        self.headers = headers
    }

    /// The file, or `304 Not Modified` when the request's `If-None-Match` names it.
    public func response(to request: Request) -> Response {
        if EntityTag.request(request, alreadyHas: entityTag) {
            return Response(status: .notModified, headers: [.eTag: entityTag, .cacheControl: "no-cache"])
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}

extension HTTPField.Name {
    /// `Referrer-Policy` (swift-http-types names the others we send). A valid field-name
    /// token, so the initializer cannot return nil.
    package static let referrerPolicy = Self("Referrer-Policy")!
}
