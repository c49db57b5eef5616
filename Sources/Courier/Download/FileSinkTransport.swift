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
        // The head starts (and checks) the file before any body arrives, an empty body too.
        try await base.send(
            request,
            head: { head throws(RequestError) in try writer.receive(head, Data()) },
            body: { chunk throws(RequestError) in
                guard let head = writer.head else { return }
                try writer.receive(head, chunk)
            }
        )
        guard let head = writer.head else {
            throw .transport(TransportFailure(.other, request: request.summary, detail: "no response head"))
        }
        // A body that ended early is a broken connection, whatever the framing said: retried
        // by `Retry` where configured, and never moved into place.
        if head.status.code == 200 || head.status.code == 206, let shortfall = writer.shortfall {
            throw .transport(TransportFailure(.connectionLost, request: request.summary, detail: shortfall))
        }
        return RawResponse(head: head, body: writer.otherBody, url: request.url)
    }
}
