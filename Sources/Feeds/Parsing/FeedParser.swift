public import Foundation

/// Parses feeds: Atom, RSS (0.9x, 1.0, 2.0) and JSON Feed, into ``Feed``.
///
/// ```swift
/// let feed = try FeedParser().parse(data, baseURL: URL(string: "https://example.com/feed.xml"))
/// for entry in feed.entries { print(entry.published ?? .distantPast, entry.title ?? "") }
/// ```
///
/// The parser never loads anything from outside the document, bounds nesting, entity expansion
/// and size (``XMLLimits``), and reads ill-formed feeds leniently, marking them
/// ``Feed/isWellFormed`` false.
public struct FeedParser: Sendable {
    /// The limits that end the parse of a hostile document.
    public var limits: XMLLimits

    /// A parser with `limits`.
    public init(limits: XMLLimits = XMLLimits()) {
        self.limits = limits
    }

    /// Parses a whole document.
    ///
    /// - Parameters:
    ///   - baseURL: The document's URL, for relative links without `xml:base`.
    ///   - contentType: The HTTP `Content-Type`, for its charset (and whether it is XML at all).
    /// - Throws: ``FeedError`` when a limit is exceeded.
    public func parse(_ data: Data, baseURL: URL? = nil, contentType: String? = nil) throws(FeedError) -> Feed {
        if JSONFeedReader.isJSONFeed(data, contentType: contentType) {
            return try JSONFeedReader.parse(data, baseURL: baseURL)
        }
        guard data.count <= limits.maximumDocumentSize else {
            throw FeedError("the document is larger than \(limits.maximumDocumentSize) bytes")
        }
        let decoded = FeedEncoding.decode(data, contentType: contentType)
        var tokenizer = XMLTokenizer(limits: limits)
        var builder = FeedBuilder(documentBase: baseURL)
        let chunkSize = 1 << 16
        var start = 0
        while start < decoded.utf8.count {
            let end = min(start + chunkSize, decoded.utf8.count)
            try tokenizer.feed(decoded.utf8[start..<end]) { event throws(FeedError) in builder.handle(event) }
            start = end
        }
        try tokenizer.finish { event throws(FeedError) in builder.handle(event) }
        var feed = builder.finish()
        let problem = decoded.problem ?? tokenizer.firstProblem ?? builder.problems.first
        feed.isWellFormed = problem == nil
        feed.problem = problem
        return feed
    }
}
