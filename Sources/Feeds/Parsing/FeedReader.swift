import CourierXML
import Foundation

/// One document read in pieces: the first bytes choose the format and the encoding, then each
/// piece is decoded, tokenized and built into entries. ``FeedParser/parse(_:baseURL:contentType:)``
/// and ``FeedEntries`` both read through it.
///
/// Memory is bounded by the largest token, the entries not yet taken and a constant; a JSON
/// Feed is held whole (at most `XMLLimits.maximumDocumentSize`) and read at the end.
struct FeedReader {
    /// How many bytes decide the format and the encoding at most: a declaration is in the
    /// first KiB.
    static let headSize = 1024

    private let limits: XMLLimits
    private let contentType: String?
    private let baseURL: URL?
    private var size = 0
    /// The first bytes, until they decide.
    private var head: [UInt8] = []
    private var format = Format.undecided
    /// A JSON Feed's bytes, read at the end.
    private var json: [UInt8] = []
    private var decoder = FeedDecoder(FeedEncoding.Choice(encoding: "utf-8"))
    private var tokenizer: XMLTokenizer
    private var builder: FeedBuilder
    private var jsonFeed: Feed?
    /// The UTF-8 of the piece being read.
    private var decoded: [UInt8] = []
    /// Checks the encoding chosen from the first bytes against the whole document, when the
    /// whole document can be read before it is parsed (``EncodingCheck``).
    private let settle: ((FeedEncoding.Choice) -> FeedEncoding.Choice)?

    private enum Format {
        case undecided, xml, json
    }

    init(
        limits: XMLLimits,
        baseURL: URL?,
        contentType: String?,
        keepsEntries: Bool,
        settle: ((FeedEncoding.Choice) -> FeedEncoding.Choice)? = nil
    ) {
        self.settle = settle
        self.limits = limits
        self.baseURL = baseURL
        self.contentType = contentType
        self.tokenizer = XMLTokenizer(limits: limits)
        self.builder = FeedBuilder(documentBase: baseURL)
        builder.retainsEntries = keepsEntries
    }

    /// The feed's own fields as read so far, and whether it is well-formed so far; with its
    /// entries when they are kept.
    var feed: Feed {
        var feed = jsonFeed ?? builder.feedSoFar
        if jsonFeed == nil {
            let problem = decoder.problem ?? tokenizer.firstProblem ?? builder.problem
            feed.isWellFormed = problem == nil
            feed.problem = problem
        }
        return feed
    }

    /// Reads the next piece of the document.
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) throws(FeedError) {
        size += bytes.count
        guard size <= limits.maximumDocumentSize else {
            throw .limitExceeded(.documentSize(limits.maximumDocumentSize))
        }
        switch format {
        case .undecided:
            head.append(contentsOf: bytes)
            // A stream that trickles must not wait for a KiB: the first `>` ends the XML
            // declaration if there is one (it comes first), and JSON shows at its first byte.
            if head.count >= Self.headSize || (head.count >= 4 && head[3...].contains(UInt8(ascii: ">")))
                || JSONFeedReader.startsLikeJSON(head)
            {
                try decide()
            }
        case .xml:
            try read(bytes)
        case .json:
            json.append(contentsOf: bytes)
        }
    }

    /// Ends the document: closes what is open and returns the feed (its entries too when kept).
    mutating func finish() throws(FeedError) -> Feed {
        if case .undecided = format { try decide() }
        switch format {
        case .json:
            let isFeedType = FeedEncoding.parse(contentType).0 == "application/feed+json"
            jsonFeed = try JSONFeedReader.parse(Data(json), baseURL: baseURL, requiresVersion: !isFeedType)
            json = []
        default:
            var rest: [UInt8] = []
            decoder.finish { rest.append(contentsOf: $0) }
            try tokenize(rest)
            var local = FeedBuilder(documentBase: nil)
            swap(&local, &builder)
            defer { swap(&local, &builder) }
            do throws(XMLError) {
                try tokenizer.finish { event in local.handle(event) }
            } catch {
                throw FeedError(error)
            }
            _ = local.finish()
            if let refusal = local.refusal { throw refusal }
        }
        return feed
    }

    /// The entries finished since the last call (when entries are not kept), in order.
    mutating func takeEntries() -> [Entry] {
        if let jsonFeed {
            self.jsonFeed?.entries = []
            return jsonFeed.entries
        }
        defer { builder.pendingEntries.removeAll(keepingCapacity: true) }
        return builder.pendingEntries
    }

    /// The first bytes decide: JSON (a JSON Feed or not, seen once it has all arrived), or XML
    /// in an encoding.
    private mutating func decide() throws(FeedError) {
        let bytes = head
        head = []
        if JSONFeedReader.startsLikeJSON(bytes) || FeedEncoding.parse(contentType).0 == "application/feed+json" {
            format = .json
            json = bytes
            return
        }
        format = .xml
        let choice = FeedEncoding.choose(head: bytes, contentType: contentType)
        decoder = FeedDecoder(settle?(choice) ?? choice)
        try bytes.withUnsafeBufferPointer { bytes throws(FeedError) in try read(bytes) }
    }

    /// Decodes a piece into ``decoded`` (one buffer, reused), then tokenizes it at once: a
    /// piece the decoder hands over a byte at a time costs one pass of the tokenizer, not one
    /// a byte.
    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(FeedError) {
        decoded.removeAll(keepingCapacity: true)
        var utf8 = decoded
        decoded = []
        decoder.decode(bytes) { utf8.append(contentsOf: $0) }
        decoded = utf8
        try tokenize(decoded)
    }

    /// Runs UTF-8 through the tokenizer into the builder (swapped out, so neither is copied).
    private mutating func tokenize(_ utf8: [UInt8]) throws(FeedError) {
        guard !utf8.isEmpty else { return }
        var local = FeedBuilder(documentBase: nil)
        swap(&local, &builder)
        defer { swap(&local, &builder) }
        do throws(XMLError) {
            try tokenizer.feed(utf8) { event in local.handle(event) }
        } catch {
            throw FeedError(error)
        }
    }
}
