// Feeds' API names the XML reader's types (`XMLLimits`, `XMLLimit`): a program that imports
// Feeds uses them without importing CourierXML too.
@_exported public import CourierXML
public import Foundation

/// Parses feeds: Atom, RSS (0.9x, 1.0, 2.0) and JSON Feed, into ``Feed``.
///
/// ```swift
/// let feed = try FeedParser().parse(data, baseURL: URL(string: "https://example.com/feed.xml"))
/// for entry in feed.entries { print(entry.published ?? .distantPast, entry.title ?? "") }
/// ```
///
/// The parser never loads anything from outside the document, bounds nesting, entity expansion
/// and size (`XMLLimits`), and reads ill-formed feeds leniently, marking them
/// ``Feed/isWellFormed`` false. Time is linear in the document, whatever it holds.
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
    ///   - data: The whole document.
    ///   - baseURL: The document's URL, for relative links without `xml:base`.
    ///   - contentType: The HTTP `Content-Type`, for its charset (and whether it is XML at all).
    /// - Throws: ``FeedError`` when a limit is exceeded, or the document is not a feed.
    public func parse(_ data: Data, baseURL: URL? = nil, contentType: String? = nil) throws(FeedError) -> Feed {
        guard data.count <= limits.maximumDocumentSize else {
            throw .limitExceeded(.documentSize(limits.maximumDocumentSize))
        }
        // The whole document is here: its encoding is checked whole, as feedparser checks it.
        var reader = FeedReader(limits: limits, baseURL: baseURL, contentType: contentType, keepsEntries: true) {
            choice in
            EncodingCheck.settle(choice) { consume in
                data.withUnsafeBytes { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    var start = 0
                    while start < bytes.count {
                        let end = min(start + (1 << 16), bytes.count)
                        guard consume(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return }
                        start = end
                    }
                }
            }
        }
        let result = data.withUnsafeBytes { raw in
            Result<Void, FeedError> { () throws(FeedError) in
                let bytes = raw.bindMemory(to: UInt8.self)
                var start = 0
                // In pieces, as a stream arrives: the tokenizer holds one piece at a time.
                while start < bytes.count {
                    let end = min(start + (1 << 16), bytes.count)
                    try reader.consume(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    start = end
                }
            }
        }
        try result.get()
        return try reader.finish()
    }
}
