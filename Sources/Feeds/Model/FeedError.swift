/// A document the parser refuses: over a limit, not a feed at all, or a JSON Feed that is not
/// JSON.
///
/// Ill-formed XML is not an error: feeds are read leniently, and ``Feed/isWellFormed`` says so.
/// ``message`` is one line for a person; ``shortDescription`` a bounded token for logs and
/// metrics.
///
/// ```swift
/// do throws(FeedError) {
///     let feed = try FeedParser().parse(data)
///     print(feed.title ?? "untitled")
/// } catch .limitExceeded(.documentSize(let limit)) {
///     print("larger than \(limit) bytes")
/// } catch {
///     print(error.message)
/// }
/// ```
public enum FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document went past one of ``XMLLimits``.
    case limitExceeded(Limit)
    /// A JSON Feed that is not valid JSON: why, and where (line and column from 1).
    case notWellFormed(reason: String, line: Int, column: Int)
    /// A document that is not a feed: what it is instead (`an HTML page`, `JSON without a
    /// JSON Feed version`).
    case notAFeed(String)

    /// The limit a document went past, with its value.
    public enum Limit: Sendable, Hashable {
        /// ``XMLLimits/maximumDocumentSize``, in bytes.
        case documentSize(Int)
        /// ``XMLLimits/maximumTokenSize``, in bytes: one tag, comment, section or run of text.
        case tokenSize(Int)
        /// ``XMLLimits/maximumDepth``, in elements.
        case depth(Int)
        /// ``XMLLimits/maximumEntityExpansion``, in characters.
        case entityExpansion(Int)
        /// Entities that refer to entities, more than this many levels deep.
        case entityNesting(Int)
    }

    /// What went wrong and what to do, for people.
    public var message: String {
        switch self {
        case .limitExceeded(let limit):
            switch limit {
            case .documentSize(let bytes):
                "The document is larger than \(bytes) bytes (XMLLimits.maximumDocumentSize)."
            case .tokenSize(let bytes):
                "A tag, comment, section or run of text is longer than \(bytes) bytes (XMLLimits.maximumTokenSize)."
            case .depth(let levels):
                "Elements nest deeper than \(levels) levels (XMLLimits.maximumDepth)."
            case .entityExpansion(let characters):
                "Entity references expand to more than \(characters) characters (XMLLimits.maximumEntityExpansion)."
            case .entityNesting(let levels):
                "Entities refer to entities more than \(levels) levels deep."
            }
        case .notWellFormed(let reason, let line, let column):
            "The JSON Feed is not valid JSON: line \(line), column \(column): \(reason)."
        case .notAFeed(let what):
            "The document is not a feed: it is \(what)."
        }
    }

    /// A token that names the kind of error: `limit_document_size`, `not_well_formed`,
    /// `not_a_feed`….
    public var shortDescription: String {
        switch self {
        case .limitExceeded(let limit):
            switch limit {
            case .documentSize: "limit_document_size"
            case .tokenSize: "limit_token_size"
            case .depth: "limit_depth"
            case .entityExpansion: "limit_entity_expansion"
            case .entityNesting: "limit_entity_nesting"
            }
        case .notWellFormed: "not_well_formed"
        case .notAFeed: "not_a_feed"
        }
    }

    /// ``message``.
    public var description: String { message }
}
