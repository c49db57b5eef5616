public import Foundation
import HTTPTypes

extension HTTPClient {
    /// Downloads the endpoint's response body to `destination`, streaming it to disk.
    ///
    /// The body goes to `<destination>.download` as it arrives and is moved into place in one
    /// step when complete, so `destination` is never half-written. If the download breaks off
    /// (a lost connection, a killed process), calling this again with the same URL and
    /// destination resumes it with `Range` and `If-Range` where the server allows (a 206);
    /// otherwise it starts over. Cancelling the task removes the partial file.
    ///
    /// ```swift
    /// let result = try await client.download(Endpoint(url: fileURL), to: destination) { progress in
    ///     print(progress.bytesReceived, progress.expectedBytes ?? -1)
    /// }
    /// ```
    ///
    /// Redirects, the security policy and middleware apply as for ``HTTPClient/send(_:)->Value``, except
    /// the cache: a download reads the client's cache, by the same rules, but does not fill it. When the
    /// cache holds the bytes asked for in a response it may use without asking the origin
    /// (fresh, the same representation), they are written from it — the rest of a resumed
    /// download included — and nothing is sent. The client's timeout and response size limit do
    /// not apply; the transport's connection timeouts do. The body is asked for uncompressed
    /// (`Accept-Encoding: identity`) unless the endpoint asks otherwise.
    ///
    /// With `replacingExisting` off, a `destination` that exists already (a file, a directory,
    /// a symbolic link) is never replaced: the download fails before anything is sent, and the
    /// finished file is moved into place only if nothing has taken the name meanwhile. For a
    /// name the person did not choose (``DownloadFileName``).
    ///
    /// - Parameters:
    ///   - endpoint: What to download.
    ///   - destination: The file to write.
    ///   - replacingExisting: Whether an existing file at `destination` is replaced (the default).
    ///   - progress: Called as bytes arrive.
    /// - Throws: ``RequestError``, the same cases as ``HTTPClient/send(_:)->Value`` for the network and the status,
    ///   and ``RequestError/fileSystem(path:reason:)`` when the file cannot be written or exists
    ///   and may not be replaced.
    public func download(
        _ endpoint: Endpoint<Data>,
        to destination: URL,
        replacingExisting: Bool = true,
        progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
    ) async throws(RequestError) -> DownloadResult {
        let partial = PartialDownload(destination: destination)
        if !replacingExisting { try partial.checkNothingAtDestination() }
        var request = try prepare(endpoint)
        request.timeout = nil
        request.maxResponseSize = .max
        // The file's own bytes, which a resumed download's offsets count.
        if endpoint.headers[.acceptEncoding] == nil { request.head.headerFields[.acceptEncoding] = "identity" }
        let resumable = partial.resumable(for: request.url)
        if let resumable {
            request.head.headerFields[.range] = "bytes=\(resumable.offset)-"
            request.head.headerFields[.ifRange] = resumable.validator
        }
        let writer = DownloadWriter(
            partial: partial,
            url: request.url,
            resumeOffset: resumable?.offset ?? 0,
            resumedTotal: resumable?.total,
            resumedEncoding: resumable?.contentEncoding,
            progress: progress
        )
        let pipeline = Self.pipeline(
            to: FileSinkTransport(base: transport, writer: writer),
            configuration: configuration,
            cache: .downloading(writer)
        )
        let response: RawResponse
        do {
            response = try await pipeline(request)
        } catch .cancelled {
            writer.close()
            partial.discard()
            throw .cancelled
        } catch {
            writer.close()  // what arrived stays, for resuming
            throw error
        }
        switch response.status {
        case 200, 206:
            try writer.finish()
            try partial.complete(replacingExisting: replacingExisting)
            let (bytes, _) = writer.totals
            return DownloadResult(
                file: destination,
                bytes: bytes,
                resumedFrom: response.status == 206 ? writer.resumeOffset : 0,
                head: response.head
            )
        case 416 where resumable != nil:
            // The part on disk is not a prefix of what the server has now: start over.
            partial.discard()
            return try await download(
                endpoint,
                to: destination,
                replacingExisting: replacingExisting,
                progress: progress
            )
        default:
            writer.close()
            throw Self.failure(for: response, request: request.summary)
        }
    }
}
