/// What the tokenizer finds in a document, in order: names as written (with their prefixes),
/// text as views of its buffer. ``XMLEventReader`` makes events of them; feeds read them
/// directly.
package enum XMLToken: Equatable, Sendable {
    /// `<name attr="value">` (or `<name/>` with `isEmpty`).
    case start(name: String, attributes: [Attribute], isEmpty: Bool)
    /// `</name>`.
    case end(name: String)
    /// Character data, UTF-8 with references decoded (a view of the tokenizer's buffer: copy
    /// what is kept).
    case text(ArraySlice<UInt8>)
    /// The content of a CDATA section, UTF-8.
    case cdata(ArraySlice<UInt8>)
    /// The text of a comment, UTF-8, as written.
    case comment(ArraySlice<UInt8>)
    /// A processing instruction: its target and the rest, UTF-8 (the XML declaration is not one).
    case instruction(target: ArraySlice<UInt8>, data: ArraySlice<UInt8>)

    /// One attribute, its value with references decoded and white space normalized.
    package struct Attribute: Equatable, Sendable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}
