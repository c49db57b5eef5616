import Foundation

extension StreamedResponse.Body {
    /// The body as lines of text (UTF-8, invalid bytes replaced by U+FFFD), without their
    /// endings: LF or CRLF. A UTF-8 byte order mark before the first line is dropped; a last
    /// line without an ending is kept.
    ///
    /// ```swift
    /// for try await line in try await client.stream(Endpoint<Data>(url: logURL)).body.lines() {
    ///     print(line)
    /// }
    /// ```
    ///
    /// - Parameter maxLength: The longest line accepted, in bytes; a longer one ends the reading
    ///   with ``StreamFailure/Kind/lineTooLong(limit:)`` and aborts the request, so that a body
    ///   without line endings cannot fill memory.
    public func lines(maxLength: Int = 1 << 20) -> Lines {
        Lines(body: self, maxLength: maxLength)
    }

    /// The lines of a streamed body; see ``StreamedResponse/Body/lines(maxLength:)``.
    public struct Lines: AsyncSequence, Sendable {
        /// What the sequence yields.
        public typealias Element = String
        /// What reading throws.
        public typealias Failure = RequestError

        let body: StreamedResponse.Body
        let maxLength: Int

        /// Starts reading.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(reader: LineReader(body: body, endings: .lineFeed, maxLength: maxLength))
        }

        /// Reads the lines of a body.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var reader: LineReader

            /// The next line, or `nil` at the end of the body.
            public mutating func next() async throws(RequestError) -> String? {
                try await next(isolation: nil)
            }

            /// The next line, or `nil` at the end of the body.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> String? {
                try await reader.next(isolation: actor).map { String(decoding: $0, as: UTF8.self) }
            }
        }
    }
}

/// Reads a body line by line, as bytes.
struct LineReader {
    private var base: StreamedResponse.Body.AsyncIterator
    private var splitter: LineSplitter
    private var ended = false
    let request: RequestSummary

    init(body: StreamedResponse.Body, endings: LineSplitter.Endings, maxLength: Int) {
        base = body.makeAsyncIterator()
        splitter = LineSplitter(endings: endings, maxLength: max(0, maxLength))
        request = body.request
    }

    /// The number of the last line returned (1 for the first).
    var lineNumber: Int { splitter.lineNumber }

    /// The next line without its ending, or `nil` at the end of the body.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> Data? {
        while true {
            switch ended ? splitter.finish() : splitter.next() {
            case .line(let line): return line
            case .tooLong:
                cancel()
                let failure = StreamFailure(
                    .lineTooLong(limit: splitter.maxLength),
                    request: request,
                    line: lineNumber + 1
                )
                throw .stream(failure)
            case .needMore:
                if ended { return nil }
                if let chunk = try await base.next(isolation: actor) {
                    splitter.append(chunk)
                } else {
                    ended = true
                }
            }
        }
    }

    /// Stops the transfer.
    func cancel() {
        base.reader.source.channel.cancel(.cancelled)
    }
}
