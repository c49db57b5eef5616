import CourierXML

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
    /// The document went past one of `XMLLimits`.
    case limitExceeded(Limit)
    /// A JSON Feed that is not valid JSON: why, and where (line and column from 1).
    case notWellFormed(reason: String, line: Int, column: Int)
    /// A document that is not a feed: what it is instead (`an HTML page`, `JSON without a
    /// JSON Feed version`).
    case notAFeed(String)

    /// The limit a document went past, with its value: the XML reader's (`XMLLimit`).
    public typealias Limit = XMLLimit

    /// The feed error of an XML reader's `error`.
    init(_ error: XMLError) {
        switch error {
        case .limitExceeded(let limit): self = .limitExceeded(limit)
        }
    }

    /// What went wrong and what to do, for people.
    public var message: String {
        switch self {
        case .limitExceeded(let limit):
            limit.message
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
