import Foundation
import HTTPTypes

/// A download's cache stage, where its client has a cache: what
/// the cache can answer without the origin (fresh bytes of the same representation, the rest
/// of a resumed download included, or an offline request's 504) is written to the download's
/// file from the cache; everything else goes on to the origin. A download reads the cache but
/// never fills it: its body goes to the file, not to memory.
struct CachedDownload: Sendable {
    let caching: Caching
    let writer: DownloadWriter

    func send(_ request: PreparedRequest, next: Middleware.Next) async throws(RequestError) -> RawResponse {
        guard request.head.method == .get, let cached = await caching.storedAnswer(for: request) else {
            return try await next(request)
        }
        guard cached.status == 200 || cached.status == 206 else { return cached }
        writer.beginResponse()
        try writer.receive(cached.head, Data())
        try writer.receive(cached.head, cached.body)
        // As for a body from the network: never moved into place shorter than announced.
        if let shortfall = writer.shortfall {
            throw .transport(
                TransportFailure(.other, request: request.summary, detail: "the cached response: \(shortfall)")
            )
        }
        var response = cached
        response.body = Data()
        return response
    }
}
