public import Foundation

extension FeedParser {
    /// The entries of a feed arriving in chunks, each as soon as its end tag has arrived.
    ///
    /// Memory stays bounded by the largest entry and the entries of one chunk, not the feed:
    /// chunks are pulled only when the entries already found have been taken. UTF-8 and
    /// US-ASCII feeds stream; a feed in another encoding is collected first, then read.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// for try await entry in FeedParser().entries(in: bytes.chunked()) { print(entry.title ?? "") }
    /// ```
    public func entries<Chunks: AsyncSequence>(
        in chunks: Chunks,
        baseURL: URL? = nil,
        contentType: String? = nil
    ) -> FeedEntries<Chunks> where Chunks.Element == Data {
        FeedEntries(chunks: chunks, parser: self, baseURL: baseURL, contentType: contentType)
    }
}

/// The entries of a feed read from chunks; see ``FeedParser/entries(in:baseURL:contentType:)``.
public struct FeedEntries<Chunks: AsyncSequence>: AsyncSequence where Chunks.Element == Data {
    /// Each element is one entry.
    public typealias Element = Entry

    let chunks: Chunks
    let parser: FeedParser
    let baseURL: URL?
    let contentType: String?

    /// Starts reading.
    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), parser: parser, baseURL: baseURL, contentType: contentType)
    }

    /// Pulls chunks until an entry is complete.
    public struct Iterator: AsyncIteratorProtocol {
        private var chunks: Chunks.AsyncIterator
        private let parser: FeedParser
        private let contentType: String?
        private var tokenizer: XMLTokenizer
        private var builder: FeedBuilder
        private var head: [UInt8] = []
        private var isUTF8: Bool?
        private var isFinished = false
        /// Entries found and not taken yet, the next one last (taken in O(1)).
        private var ready: [Entry] = []

        init(chunks: Chunks.AsyncIterator, parser: FeedParser, baseURL: URL?, contentType: String?) {
            self.chunks = chunks
            self.parser = parser
            self.contentType = contentType
            self.tokenizer = XMLTokenizer(limits: parser.limits)
            self.builder = FeedBuilder(documentBase: baseURL)
            self.builder.retainsEntries = false
        }

        /// The next entry, or `nil` at the end of the feed.
        ///
        /// - Throws: ``FeedError`` when the feed breaks a limit, or the chunks' own error.
        public mutating func next() async throws -> Entry? {
            try await next(isolation: nil)
        }

        /// The next entry, read on the caller's executor: iterating from an actor (the main
        /// actor, say) does not hop to another thread for each entry.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Entry? {
            while ready.isEmpty {
                if !builder.pendingEntries.isEmpty {
                    ready = builder.pendingEntries.reversed()
                    builder.pendingEntries.removeAll(keepingCapacity: true)
                    break
                }
                guard !isFinished else { break }
                if let chunk = try await chunks.next(isolation: actor) {
                    try consume(chunk)
                } else {
                    try finish()
                }
            }
            return ready.popLast()
        }

        private mutating func consume(_ chunk: Data) throws {
            guard let isUTF8 else {
                // Decide the encoding from the start of the document.
                head.append(contentsOf: chunk)
                if head.count > parser.limits.maximumDocumentSize {
                    throw FeedError("the document is larger than \(parser.limits.maximumDocumentSize) bytes")
                }
                guard head.count >= 1024 else { return }
                try decideEncoding()
                return
            }
            if isUTF8 {
                try feedTokenizer(chunk)
            } else {
                head.append(contentsOf: chunk)
                if head.count > parser.limits.maximumDocumentSize {
                    throw FeedError("the document is larger than \(parser.limits.maximumDocumentSize) bytes")
                }
            }
        }

        /// Runs bytes through the tokenizer into the builder (swapped out, so neither is copied).
        private mutating func feedTokenizer(_ bytes: some Collection<UInt8>) throws {
            var local = FeedBuilder(documentBase: nil)
            swap(&local, &builder)
            defer { swap(&local, &builder) }
            try tokenizer.feed(bytes) { event throws(FeedError) in local.handle(event) }
        }

        private mutating func decideEncoding() throws {
            let probe = FeedEncoding.decode(Data(head.prefix(1024)), contentType: contentType)
            let utf8 = ["utf-8", "us-ascii"].contains(probe.encoding) && !head.starts(with: [0xEF, 0xBB, 0xBF])
            isUTF8 = utf8
            if utf8 {
                let bytes = head
                head = []
                try feedTokenizer(bytes)
            }
        }

        private mutating func finish() throws {
            isFinished = true
            if isUTF8 != true {
                let decoded = FeedEncoding.decode(Data(head), contentType: contentType)
                head = []
                try feedTokenizer(decoded.utf8)
            }
            var local = FeedBuilder(documentBase: nil)
            swap(&local, &builder)
            defer { swap(&local, &builder) }
            try tokenizer.finish { event throws(FeedError) in local.handle(event) }
            _ = local.finish()
        }
    }
}
