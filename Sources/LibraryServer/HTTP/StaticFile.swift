import Courier
import Foundation
import HTTPTypes
import Hummingbird
import LibrarySearch
import NIOCore

/// A file from the bundle, read once, served with an entity tag so browsers revalidate cheaply.
struct StaticFile: Sendable {
    let body: ByteBuffer
    let headers: HTTPFields
    let entityTag: String

    /// Reads `Resources/<name>` from the module's bundle.
    init(named name: String, contentType: String, extraHeaders: HTTPFields = [:]) throws(DataFileError) {
        guard let url = Bundle.module.resourceURL?.appendingPathComponent(name), let bytes = try? Data(contentsOf: url)
        else { throw DataFileError(file: name, problem: "missing from the LibraryServer bundle: reinstall courier") }
        body = ByteBuffer(bytes: bytes)
        entityTag = "\"\(String(FNV1a.hash(Array(bytes)), radix: 16))\""
        var headers = extraHeaders
        headers[.contentType] = contentType
        headers[.eTag] = entityTag
        headers[.cacheControl] = "no-cache"
        self.headers = headers
    }

    /// The file, or `304 Not Modified` when the request's `If-None-Match` names it.
    func response(to request: Request) -> Response {
        if EntityTag.request(request, alreadyHas: entityTag) {
            return Response(status: .notModified, headers: [.eTag: entityTag, .cacheControl: "no-cache"])
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
