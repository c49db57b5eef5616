public import Foundation
public import HTTPTypes
import Synchronization

/// A response whose body is read as it arrives, from ``HTTPClient/stream(_:timeout:idleTimeout:)``.
///
/// ```swift
/// let response = try await client.stream(Endpoint<Data>(url: logURL))
/// for try await chunk in response.body {
///     try output.write(contentsOf: chunk)
/// }
/// ```
///
/// The body can be read once. Leaving the loop early (`break`, a thrown error) or cancelling the
/// task aborts the request on the wire; so does dropping a response whose body was never read.
/// Until the body is read, the transfer waits: at most about a megabyte is buffered.
public struct StreamedResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The URL that answered, after redirects.
    public var url: String
    /// The body, piece by piece as the network delivers it.
    public let body: Body

    /// The status code.
    public var status: Int { head.status.code }

    /// The body of a ``StreamedResponse``: an asynchronous sequence of byte chunks, in order.
    ///
    /// It ends when the body has arrived whole, and throws ``RequestError`` when the connection
    /// breaks (``RequestError/transport(_:)``), stays silent past the idle timeout, or when the
    /// task is cancelled (``RequestError/cancelled``).
    public struct Body: AsyncSequence, Sendable {
        /// What the sequence yields.
        public typealias Element = Data
        /// What reading throws.
        public typealias Failure = RequestError

        let source: Source

        init(channel: BodyChannel, request: RequestSummary) {
            source = Source(channel: channel, request: request)
        }

        /// The request the body answers, for messages.
        var request: RequestSummary { source.request }

        /// Starts reading; a second iterator of the same body throws
        /// ``StreamFailure/Kind/readTwice``.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(reader: Reader(source: source, claimed: source.claim()))
        }

        /// Reads the rest of the body into memory.
        ///
        /// - Throws: ``RequestError/bodyTooLarge(_:limit:)`` past `limit` bytes (and the request
        ///   is aborted), or what reading throws.
        public func collect(upTo limit: Int) async throws(RequestError) -> Data {
            var data = Data()
            for try await chunk in self {
                guard chunk.count <= limit - data.count else { throw .bodyTooLarge(request, limit: limit) }
                data.append(chunk)
            }
            return data
        }

        /// Stops the transfer: the request is aborted and reading ends with
        /// ``RequestError/cancelled``.
        public func cancel() {
            source.channel.cancel(.cancelled)
        }

        /// Reads the pieces of a ``StreamedResponse/Body``.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let reader: Reader

            /// The next piece, or `nil` at the end of the body.
            public mutating func next() async throws(RequestError) -> Data? {
                try await next(isolation: nil)
            }

            /// The next piece, or `nil` at the end of the body.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Data? {
                guard reader.claimed else { throw .stream(StreamFailure(.readTwice, request: reader.source.request)) }
                return try await reader.source.channel.next()
            }
        }
    }
}

extension StreamedResponse.Body {
    /// What the body reads from; the request is aborted when the last reference goes away
    /// without the body having been read to its end.
    final class Source: Sendable {
        let channel: BodyChannel
        let request: RequestSummary
        private let claimed = Atomic<Bool>(false)

        init(channel: BodyChannel, request: RequestSummary) {
            self.channel = channel
            self.request = request
        }

        /// Whether this is the first reader.
        func claim() -> Bool {
            !claimed.exchange(true, ordering: .relaxed)
        }

        deinit {
            channel.cancel(.cancelled)
        }
    }

    /// One reading of the body: when it goes away (the loop ended or was left), the request is
    /// aborted if bytes are still coming.
    final class Reader: Sendable {
        let source: Source
        let claimed: Bool

        init(source: Source, claimed: Bool) {
            self.source = source
            self.claimed = claimed
        }

        deinit {
            if claimed { source.channel.cancel(.cancelled) }
        }
    }
}
