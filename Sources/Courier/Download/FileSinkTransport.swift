import Foundation
import HTTPTypes

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
        // An empty body still starts (and checks) the file from its own head.
        if !writer.hasStarted { try writer.receive(head, Data()) }
        // A body that ended early is a broken connection, whatever the framing said: retried
        // by `Retry` where configured, and never moved into place.
        if head.status.code == 200 || head.status.code == 206, let shortfall = writer.shortfall {
            throw .transport(TransportFailure(.connectionLost, request: request.summary, detail: shortfall))
        }
        return RawResponse(head: head, body: writer.otherBody, url: request.url)
    }
}
