/// Limits that keep hostile documents from using unbounded time or memory.
///
/// ```swift
/// var reader = XMLEventReader(limits: XMLLimits(maximumDepth: 64, maximumDocumentSize: 8 << 20))
/// ```
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
