import Foundation

/// The transport at the end of a download's pipeline: it streams each response through its
/// base transport into a ``DownloadWriter`` and returns the head with the body of a response
/// that was not written (a redirect, an error page), so redirects, status checks and
/// middleware work on downloads as on any request.
struct FileSinkTransport: HTTPTransport {
    let base: any HTTPTransport
    let writer: DownloadWriter

    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        writer.beginResponse()
        let writer = self.writer
        let head = try await base.send(request) { head, chunk throws(RequestError) in
            try writer.receive(head, chunk)
        }
        return RawResponse(head: head, body: writer.otherBody, url: request.url)
    }
}
