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
final class DownloadWriter: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        var head: HTTPResponse?
        var written: Int64 = 0
        var expected: Int64?
        var otherBody = Data()
    }

    private static let otherBodyLimit = 64 << 10

    let partial: PartialDownload
    let url: String
    /// The bytes already on disk when the request was sent (0 unless resuming).
    let resumeOffset: Int64
    private let progress: @Sendable (DownloadProgress) -> Void
    private let state = Mutex(State())

    init(
        partial: PartialDownload,
        url: String,
        resumeOffset: Int64,
        progress: @escaping @Sendable (DownloadProgress) -> Void
    ) {
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

    /// The body of a response that was not written to the file.
    var otherBody: Data { state.withLock { $0.otherBody } }

    /// Bytes in the partial file and the expected total, after the last response.
    var totals: (written: Int64, expected: Int64?) { state.withLock { ($0.written, $0.expected) } }

    /// Handles one piece of a response's body.
    func receive(_ head: HTTPResponse, _ chunk: Data) throws(RequestError) {
        let report: DownloadProgress? = try state.withLock { (state) throws(RequestError) -> DownloadProgress? in
            if state.head == nil {
                state.head = head
                if head.status.code == 200 || head.status.code == 206 { try start(head, &state) }
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
                // An empty body: the file is empty.
                try start(state.head ?? HTTPResponse(status: .ok), &state)
                return try finish(&state)
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
    /// what a later resumption needs.
    private func start(_ head: HTTPResponse, _ state: inout State) throws(RequestError) {
        let isContinuation = head.status.code == 206
        if isContinuation {
            guard let range = ContentRange(head.headerFields[.contentRange] ?? ""), range.first == resumeOffset else {
                throw .fileSystem(
                    path: partial.data.path,
                    reason: "the server sent a part that does not continue the \(resumeOffset) bytes on disk"
                )
            }
            state.expected = range.total
            state.written = resumeOffset
        } else {
            state.expected = head.headerFields[.contentLength].flatMap { Int64($0) }
            state.written = 0
        }
        let flags = O_WRONLY | O_CREAT | (isContinuation ? O_APPEND : O_TRUNC)
        let descriptor = open(partial.data.path, flags, 0o644)
        guard descriptor >= 0 else {
            throw .fileSystem(path: partial.data.path, reason: String(cString: strerror(errno)))
        }
        state.descriptor = descriptor
        let tag = head.headerFields[.eTag].flatMap { $0.hasPrefix("W/") ? nil : $0 }
        try partial.save(
            .init(url: url, validator: tag ?? head.headerFields[.lastModified], expectedBytes: state.expected)
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

// File-scope wrappers: inside the class, `close` would name its method.
private func closeFile(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func writeFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// `Content-Range: bytes first-last/total` (RFC 9110 §14.4); `total` is `nil` for `*`.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    var total: Int64?

    init?(_ value: String) {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1)
        let bounds = rangeAndTotal.first?.split(separator: "-", maxSplits: 1) ?? []
        guard rangeAndTotal.count == 2, bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]),
            first <= last
        else { return nil }
        self.first = first
        self.last = last
        self.total = rangeAndTotal[1] == "*" ? nil : Int64(rangeAndTotal[1])
    }
}
