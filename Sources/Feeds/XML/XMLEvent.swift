/// What the tokenizer finds in a document, in order.
enum XMLEvent: Equatable, Sendable {
    /// `<name attr="value">` (or `<name/>` with `isEmpty`), names as written (with prefixes).
    case start(name: String, attributes: [XMLAttribute], isEmpty: Bool)
    /// `</name>`.
    case end(name: String)
    /// Character data, UTF-8 with references decoded (a view of the tokenizer's buffer: copy
    /// what is kept).
    case text(ArraySlice<UInt8>)
    /// The content of a CDATA section, UTF-8.
    case cdata(ArraySlice<UInt8>)
}

/// One attribute, its value with references decoded.
struct XMLAttribute: Equatable, Sendable {
    var name: String
    var value: String
}

/// Limits that keep hostile documents from using unbounded time or memory.
public struct XMLLimits: Sendable, Hashable {
    /// How deeply elements may nest.
    public var maximumDepth: Int
    /// How many characters entity references may expand to, in all.
    public var maximumEntityExpansion: Int
    /// How many bytes a document may have.
    public var maximumDocumentSize: Int
    /// How long one token (a tag, a comment, a run of text) may be, in bytes.
    public var maximumTokenSize: Int

    /// The defaults: 256 levels, 1 MB of entity expansion, 1 GiB of input, 16 MiB per token.
    public init(
        maximumDepth: Int = 256,
        maximumEntityExpansion: Int = 1 << 20,
        maximumDocumentSize: Int = 1 << 30,
        maximumTokenSize: Int = 16 << 20
    ) {
        self.maximumDepth = maximumDepth
        self.maximumEntityExpansion = maximumEntityExpansion
        self.maximumDocumentSize = maximumDocumentSize
        self.maximumTokenSize = maximumTokenSize
    }
}
