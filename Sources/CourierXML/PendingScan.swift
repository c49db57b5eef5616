/// Where ``XMLTokenizer`` stopped looking for the end of a token that a chunk left unfinished.
///
/// Offsets count from the token's first byte, so they survive the tokenizer dropping the
/// bytes before it. The kind matters because a token's kind can change as bytes arrive
/// (`<!-` is scanned as a declaration until the next byte makes it a comment): a scan of
/// another kind starts over.
struct PendingScan {
    enum Kind: CustomStringConvertible {
        case none, text, comment, cdata, instruction, startTag, endTag, declaration

        var description: String {
            switch self {
            case .none, .text: "text"
            case .comment: "comment"
            case .cdata: "CDATA section"
            case .instruction: "processing instruction"
            case .startTag: "start tag"
            case .endTag: "end tag"
            case .declaration: "declaration"
            }
        }
    }

    var kind = Kind.none
    /// Bytes after the token's start already looked at.
    var offset = 0
    /// The quote a tag or declaration scan is inside, if any.
    var quote: UInt8?
    /// How deep a declaration scan is inside `[…]`.
    var brackets = 0
}
