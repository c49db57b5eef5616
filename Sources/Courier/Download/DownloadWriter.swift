import Foundation
import HTTPTypes
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a download's body to its partial file as it arrives: from the start for a 200, after
/// the bytes already there for a 206 that continues them. Any other response's body (a
/// redirect, an error page) is kept in memory, up to 64 KiB, for the error message.
///
/// Each response starts again from what was on disk before the request: a retried request
/// (``Retry`` after a dropped connection) overwrites what the failed attempt wrote instead of
/// appending to it, and never leaves the failed attempt's file descriptor open.
final class DownloadWriter: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        var head: HTTPResponse?
        var written: Int64 = 0
        var expected: Int64?
        var otherBody = Data()
        /// Whether a 200 started the file over: the bytes resumed are gone, so no later part
        /// (a retried attempt's 206) can continue them.
        var startedOver = false
    }

    private static let otherBodyLimit = 64 << 10

    let partial: PartialDownload
    let url: String
    /// The bytes already on disk when the request was sent (0 unless resuming: then the request
    /// asked for the bytes from here on).
    let resumeOffset: Int64
    /// The whole file's length as an earlier response announced it, when resuming.
    let resumedTotal: Int64?
    /// The `Content-Encoding` of the bytes being resumed (`nil`: none, or decoded).
    let resumedEncoding: String?
    private let progress: @Sendable (DownloadProgress) -> Void
    private let state = Mutex(State())

    init(
        partial: PartialDownload,
        url: String,
        resumeOffset: Int64,
        resumedTotal: Int64? = nil,
        resumedEncoding: String? = nil,
        progress: @escaping @Sendable (DownloadProgress) -> Void
    ) {
        self.resumedTotal = resumedTotal
        self.resumedEncoding = resumedEncoding
        self.partial = partial
        self.url = url
        self.resumeOffset = resumeOffset
        self.progress = progress
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { closeFile($0.descriptor) } }
    }

    /// Forgets the previous response of this download (a redirect's hop).
    func beginResponse() {
        state.withLock { state in
            state.head = nil
            state.otherBody = Data()
        }
    }

    /// The current response's head, once it has arrived.
    var head: HTTPResponse? { state.withLock { $0.head } }

    /// The body of a response that was not written to the file.
    var otherBody: Data { state.withLock { $0.otherBody } }

    /// Bytes in the partial file and the expected total, after the last response.
    var totals: (written: Int64, expected: Int64?) { state.withLock { ($0.written, $0.expected) } }

    /// Why the file is not the whole resource after a 200 or 206 ended, or `nil` when it is
    /// (or when no length was announced to compare with).
    var shortfall: String? {
        state.withLock { state in
            guard let expected = state.expected, state.written != expected else { return nil }
            return "the body ended after \(state.written) of \(expected) bytes"
        }
    }

    /// Handles one piece of a response's body.
    ///
    /// - Throws: ``RequestError/transport(_:)`` when a 206 is not the rest of the file asked
    ///   for or a body runs past its announced length, ``RequestError/fileSystem(path:reason:)``.
    func receive(_ head: HTTPResponse, _ chunk: Data) throws(RequestError) {
        let report: DownloadProgress? = try state.withLock { (state) throws(RequestError) -> DownloadProgress? in
            if state.head == nil {
                state.head = head
                if head.status.code == 200 || head.status.code == 206 { try start(head, &state) }
            }
            if let expected = state.expected, state.written + Int64(chunk.count) > expected,
                head.status.code == 200 || head.status.code == 206
            {
                throw partFailure("the server sent more than the \(expected) bytes it announced")
            }
            guard state.descriptor >= 0, head.status.code == 200 || head.status.code == 206 else {
                if state.otherBody.count < Self.otherBodyLimit {
                    state.otherBody.append(chunk.prefix(Self.otherBodyLimit - state.otherBody.count))
                }
                return nil
            }
            try write(chunk, to: state.descriptor)
            state.written += Int64(chunk.count)
            return DownloadProgress(bytesReceived: state.written, expectedBytes: state.expected)
        }
        if let report { progress(report) }
    }

    /// Flushes the file to disk and closes it.
    func finish() throws(RequestError) {
        try state.withLock { (state) throws(RequestError) in
            guard state.descriptor >= 0 else {
                throw .fileSystem(path: partial.data.path, reason: "the download ended before its file was opened")
            }
            try finish(&state)
        }
    }

    /// Closes the file, keeping what was written.
    func close() {
        state.withLock { state in
            if state.descriptor >= 0 { closeFile(state.descriptor) }
            state.descriptor = -1
        }
    }

    // MARK: - Files

    /// Opens the partial file for a 200 (from the start) or a 206 continuing it, and records
    /// what a later resumption needs. A 206 must be exactly the rest of the file from
    /// ``resumeOffset``: one that was not asked for, starts elsewhere or stops before the end
    /// is refused.
    private func start(_ head: HTTPResponse, _ state: inout State) throws(RequestError) {
        if state.descriptor >= 0 {
            closeFile(state.descriptor)
            state.descriptor = -1
        }
        let isContinuation = head.status.code == 206
        if isContinuation {
            guard resumeOffset > 0 else { throw partFailure("the server sent a part (206) of a file asked for whole") }
            let field = head.headerFields[.contentRange] ?? ""
            guard let range = ContentRange(field) else {
                throw partFailure("the server sent a part (206) without a usable Content-Range ('\(field)')")
            }
            guard range.first == resumeOffset else {
                throw partFailure("the server sent bytes from \(range.first) where \(resumeOffset) were asked for")
            }
            if let total = range.total, range.last != total - 1 {
                throw partFailure(
                    "the server sent bytes \(range.first)-\(range.last) of \(total), not the rest of the file"
                )
            }
            guard !state.startedOver else {
                throw partFailure("the server sent a part (206) after it had sent the whole file anew")
            }
            // Bytes in another coding than those on disk (a start the transport decoded, a rest
            // that came compressed) cannot continue them: the next attempt starts over.
            guard head.headerFields[.contentEncoding] == resumedEncoding else {
                partial.discard()
                throw partFailure(
                    "the server sent the rest of the file in another content coding than its start; "
                        + "download it again to get it whole"
                )
            }
            let total = range.total ?? range.last + 1
            if let resumedTotal, resumedTotal != total {
                throw partFailure("the server's file is now \(total) bytes long, not the \(resumedTotal) resumed")
            }
            state.expected = total
            state.written = resumeOffset
        } else {
            state.expected = head.headerFields[.contentLength].flatMap { ContentRange.number($0) }
            state.written = 0
            state.startedOver = state.startedOver || resumeOffset > 0
        }
        // Never through a symbolic link someone put in the partial file's place.
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | (isContinuation ? 0 : O_TRUNC)
        let descriptor = open(partial.data.path, flags, 0o644)
        guard descriptor >= 0 else {
            let reason =
                errno == ELOOP
                ? "it is a symbolic link, which a download never follows" : String(cString: strerror(errno))
            throw .fileSystem(path: partial.data.path, reason: reason)
        }
        state.descriptor = descriptor
        // A continuation starts right after the bytes that were there before the request: a
        // retried attempt overwrites what the failed one added.
        if isContinuation {
            var status = stat()
            guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= resumeOffset,
                ftruncate(descriptor, off_t(resumeOffset)) == 0, lseek(descriptor, off_t(resumeOffset), SEEK_SET) >= 0
            else {
                throw .fileSystem(
                    path: partial.data.path,
                    reason: "the partial file is shorter than the \(resumeOffset) bytes resumed"
                )
            }
        }
        let tag = head.headerFields[.eTag].flatMap { $0.hasPrefix("W/") ? nil : $0 }
        try partial.save(
            .init(
                url: url,
                validator: tag ?? head.headerFields[.lastModified],
                expectedBytes: state.expected,
                contentEncoding: isContinuation ? resumedEncoding : head.headerFields[.contentEncoding]
            )
        )
    }

    private func write(_ chunk: Data, to descriptor: Int32) throws(RequestError) {
        let failure: Int32? = chunk.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let count = writeFile(descriptor, start + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        if let failure { throw .fileSystem(path: partial.data.path, reason: String(cString: strerror(failure))) }
    }

    private func finish(_ state: inout State) throws(RequestError) {
        defer {
            closeFile(state.descriptor)
            state.descriptor = -1
        }
        guard fsync(state.descriptor) == 0 else {
            throw .fileSystem(path: partial.data.path, reason: String(cString: strerror(errno)))
        }
    }
}

extension DownloadWriter {
    /// A response that cannot be part of the download: the request's fault is the server's.
    private func partFailure(_ detail: String) -> RequestError {
        .transport(TransportFailure(.other, request: summary, detail: detail))
    }

    private var summary: RequestSummary { RequestSummary(method: "GET", url: Redaction.redactingURL(url)) }
}

// File-scope wrappers: inside the class, `close` would name its method.
private func closeFile(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func writeFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
