public import Foundation
import Synchronization

/// A request body read piece by piece while it is sent — a file, a multipart form with files,
/// or a sequence of chunks — so that its size does not matter to memory.
///
/// Made by ``RequestBody/file(_:contentType:)``, ``RequestBody/stream(_:length:contentType:)`` and
/// ``RequestBody/multipart(_:)`` when the form has file parts; transports read it with
/// ``chunks(for:)``.
public struct StreamedBody: Sendable {
    /// The size in bytes, when known in advance (sent as `Content-Length`; otherwise the body
    /// is sent with chunked transfer coding).
    public let length: Int64?
    /// Whether the body can be read again from its start: a file can, a sequence cannot.
    /// A body that cannot is sent once: not retried, and not sent on by a 307 or 308 redirect.
    public let isReplayable: Bool
    /// The file the whole body is, when it is one file (for transports that upload files
    /// natively).
    public let file: URL?
    private let segments: @Sendable () -> [Segment]
    package var progress: (@Sendable (UploadProgress) -> Void)?

    /// One stretch of the body: bytes in memory, a file, or a sequence of chunks.
    enum Segment: Sendable {
        case bytes(Data)
        case file(URL, size: Int64)
        case chunks(any AsyncSequence<Data, any Error> & Sendable)
    }

    init(length: Int64?, isReplayable: Bool, file: URL? = nil, segments: @escaping @Sendable () -> [Segment]) {
        self.length = length
        self.isReplayable = isReplayable
        self.file = file
        self.segments = segments
    }

    /// Bytes already in memory, handed over in pieces of 256 KiB.
    init(inMemory data: Data) {
        let size = FileChunkReader.chunkSize
        let pieces = stride(from: data.startIndex, to: data.endIndex, by: size).map { start in
            Segment.bytes(data[start..<min(start + size, data.endIndex)])
        }
        self.init(length: Int64(data.count), isReplayable: true) { pieces }
    }

    /// Reports how many bytes have been handed to the transport.
    func reporting(_ progress: @escaping @Sendable (UploadProgress) -> Void) -> Self {
        var copy = self
        copy.progress = progress
        return copy
    }

    /// The body's bytes, in pieces of at most 256 KiB for files; each call reads from the start.
    ///
    /// - Parameter request: The request the body is sent with, for error messages.
    /// - Throws (while iterating): ``RequestError/fileSystem(path:reason:)`` when a file cannot be
    ///   read or changed size, ``RequestError/invalidBody(_:reason:)`` when a sequence fails.
    public func chunks(for request: RequestSummary) -> Chunks {
        Chunks(segments: segments(), length: length, progress: progress, request: request)
    }

    /// The pieces of a ``StreamedBody``.
    public struct Chunks: AsyncSequence, Sendable {
        /// What the sequence yields.
        public typealias Element = Data
        /// What reading throws.
        public typealias Failure = RequestError

        let segments: [Segment]
        let length: Int64?
        let progress: (@Sendable (UploadProgress) -> Void)?
        let request: RequestSummary

        /// Starts reading.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(segments: segments[...], length: length, progress: progress, request: request)
        }

        /// Reads the pieces in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var segments: ArraySlice<Segment>
            let length: Int64?
            let progress: (@Sendable (UploadProgress) -> Void)?
            let request: RequestSummary
            private var file: FileChunkReader?
            private var source: (any AsyncIteratorProtocol<Data, any Error>)?
            private var sent: Int64 = 0

            init(
                segments: ArraySlice<Segment>,
                length: Int64?,
                progress: (@Sendable (UploadProgress) -> Void)?,
                request: RequestSummary
            ) {
                self.segments = segments
                self.length = length
                self.progress = progress
                self.request = request
            }

            /// The next piece, or `nil` at the end.
            public mutating func next() async throws(RequestError) -> Data? {
                try await next(isolation: nil)
            }

            /// The next piece, or `nil` at the end.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Data? {
                while true {
                    if let reader = file {
                        if let chunk = try await reader.next() { return report(chunk) }
                        file = nil
                    }
                    if var iterator = source {
                        let chunk: Data?
                        do {
                            chunk = try await iterator.next(isolation: actor)
                        } catch let error as RequestError {
                            throw error
                        } catch {
                            throw .invalidBody(request, reason: "its sequence of chunks failed (\(error))")
                        }
                        source = iterator
                        if let chunk { return report(chunk) }
                        source = nil
                    }
                    guard let segment = segments.popFirst() else { return nil }
                    switch segment {
                    case .bytes(let data): if !data.isEmpty { return report(data) }
                    case .file(let url, let size): file = try FileChunkReader(url: url, size: size)
                    case .chunks(let sequence): source = sequence.makeAsyncIterator()
                    }
                }
            }

            private mutating func report(_ chunk: Data) -> Data {
                sent += Int64(chunk.count)
                progress?(UploadProgress(bytesSent: sent, expectedBytes: length))
                return chunk
            }
        }
    }
}

/// How far an upload has come.
public struct UploadProgress: Sendable, Hashable {
    /// Bytes handed to the connection so far.
    public var bytesSent: Int64
    /// The size of the whole body, when known.
    public var expectedBytes: Int64?

    /// Creates a progress report.
    public init(bytesSent: Int64, expectedBytes: Int64?) {
        self.bytesSent = bytesSent
        self.expectedBytes = expectedBytes
    }

    /// From 0 to 1, when the size is known.
    public var fractionCompleted: Double? {
        expectedBytes.map { $0 > 0 ? min(1, Double(bytesSent) / Double($0)) : 1 }
    }
}
