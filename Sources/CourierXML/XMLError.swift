/// A document the XML reader stops reading: it went past one of its ``XMLLimits``.
///
/// Ill-formed XML is not an error: it is read leniently, and the reader's `isWellFormed`
/// and `firstProblem` say what was wrong.
///
/// ```swift
/// do throws(XMLError) {
///     try reader.read(bytes) { event in print(event) }
/// } catch .limitExceeded(.depth(let levels)) {
///     print("nested deeper than \(levels) levels")
/// } catch {
///     print(error.message)
/// }
/// ```
public enum XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document went past one of ``XMLLimits``.
    case limitExceeded(XMLLimit)

    /// What went wrong, for people.
    public var message: String {
        switch self {
        case .limitExceeded(let limit): limit.message
        }
    }

    /// The same text as ``message``.
    public var description: String { message }
}

/// The limit a document went past, with its value.
public enum XMLLimit: Sendable, Hashable {
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

    /// What the limit is and which setting raises it.
    public var message: String {
        switch self {
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
    }
}
