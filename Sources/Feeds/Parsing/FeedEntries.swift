public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FeedParser {
    /// The entries of a feed arriving in chunks, each as soon as its end tag has arrived.
    ///
    /// Memory stays bounded by the largest entry and the entries of one chunk, not the feed:
    /// chunks are pulled only when the entries already found have been taken. Every encoding
    /// is decoded as it arrives; a JSON Feed is read whole, once it has arrived. The iterator's
    /// `feed` has the feed's own fields.
    ///
    /// ```swift
    /// let response = try await client.stream(Endpoint<Data>(url: url))  // Courier's streamed body
    /// for try await entry in FeedParser().entries(in: response.body) { print(entry.title ?? "") }
    /// ```
    public func entries<Chunks: AsyncSequence>(
        in chunks: Chunks,
        baseURL: URL? = nil,
        contentType: String? = nil
    ) -> FeedEntries<Chunks> where Chunks.Element == Data {
        FeedEntries(chunks: chunks, parser: self, baseURL: baseURL, contentType: contentType, settle: nil)
    }

    /// The entries of a feed file, each as soon as it is read, in memory bounded as for a
    /// stream. Unlike a stream, a regular file is first checked whole against its encoding (a
    /// quick pass that only decodes), so it reads exactly as ``parse(_:baseURL:contentType:)``
    /// reads it. Anything else (a pipe, a device) or a file past the size limit is read as a
    /// stream.
    ///
    /// ```swift
    /// let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "feed.xml"))
    /// for try await entry in FeedParser().entries(in: file) { print(entry.title ?? "") }
    /// ```
    public func entries(
        in file: FileHandle,
        baseURL: URL? = nil,
        contentType: String? = nil
    ) -> FeedEntries<FileChunks> {
        let start = try? file.offset()
        let limit = limits.maximumDocumentSize
        let settle = { (choice: FeedEncoding.Choice) -> FeedEncoding.Choice in
            var status = stat()
            guard let start, fstat(file.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                Int(status.st_size) - Int(start) <= limit, let resume = try? file.offset()
            else { return choice }
            defer { try? file.seek(toOffset: resume) }
            var complete = true
            let settled = EncodingCheck.settle(choice) { consume in
                do {
                    try file.seek(toOffset: start)
                    while let chunk = try file.read(upToCount: 1 << 16), !chunk.isEmpty {
                        guard chunk.withUnsafeBytes({ consume($0.bindMemory(to: UInt8.self)) }) else { return }
                    }
                } catch {
                    complete = false  // a file that cannot be read again is read as a stream
                }
            }
            return complete ? settled : choice
        }
        return FeedEntries(
            chunks: FileChunks(file),
            parser: self,
            baseURL: baseURL,
            contentType: contentType,
            settle: settle
        )
    }
}

/// The entries of a feed read from chunks; see
/// ``FeedParser/entries(in:baseURL:contentType:)-(Chunks,_,_)``.
public struct FeedEntries<Chunks: AsyncSequence>: AsyncSequence where Chunks.Element == Data {
    /// Each element is one entry.
    public typealias Element = Entry

    let chunks: Chunks
    let parser: FeedParser
    let baseURL: URL?
    let contentType: String?
    let settle: ((FeedEncoding.Choice) -> FeedEncoding.Choice)?

    /// Starts reading.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            chunks: chunks.makeAsyncIterator(),
            parser: parser,
            baseURL: baseURL,
            contentType: contentType,
            settle: settle
        )
    }

    /// Pulls chunks until an entry is complete.
    public struct Iterator: AsyncIteratorProtocol {
        private var chunks: Chunks.AsyncIterator
        private var reader: FeedReader
        private var isFinished = false
        /// Entries found and not taken yet, the next one last (taken in O(1)).
        private var ready: [Entry] = []

        init(
            chunks: Chunks.AsyncIterator,
            parser: FeedParser,
            baseURL: URL?,
            contentType: String?,
            settle: ((FeedEncoding.Choice) -> FeedEncoding.Choice)?
        ) {
            self.chunks = chunks
            self.reader = FeedReader(
                limits: parser.limits,
                baseURL: baseURL,
                contentType: contentType,
                keepsEntries: false,
                settle: settle
            )
        }

        /// How many entries ``next()`` returns without reading more: a program that writes
        /// entries in batches writes when this is 0, before it may wait for the network.
        public var readyCount: Int { ready.count }

        /// The feed's own fields read so far (title, link, version, whether it is well-formed…),
        /// without its entries; all of them once ``next()`` has returned `nil`.
        public var feed: Feed { reader.feed }

        /// The next entry, or `nil` at the end of the feed.
        ///
        /// - Throws: ``FeedError`` when the feed breaks a limit or is not a feed, or the chunks'
        ///   own error.
        public mutating func next() async throws -> Entry? {
            try await next(isolation: nil)
        }

        /// The next entry, read on the caller's executor: iterating from an actor (the main
        /// actor, say) does not hop to another thread for each entry.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Entry? {
            while ready.isEmpty {
                let taken = reader.takeEntries()
                if !taken.isEmpty {
                    ready = taken.reversed()
                    break
                }
                guard !isFinished else { break }
                if let chunk = try await chunks.next(isolation: actor) {
                    let result = chunk.withUnsafeBytes { raw in
                        Result<Void, FeedError> { () throws(FeedError) in
                            try reader.consume(raw.bindMemory(to: UInt8.self))
                        }
                    }
                    try result.get()
                } else {
                    isFinished = true
                    _ = try reader.finish()
                }
            }
            return ready.popLast()
        }
    }
}
