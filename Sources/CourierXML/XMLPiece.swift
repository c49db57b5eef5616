/// An event with its text still bytes (a view of the tokenizer's buffer: copy what is kept).
package enum XMLPiece {
    case start(XMLName, attributes: [XMLAttribute])
    case end(XMLName)
    case text(ArraySlice<UInt8>, isCDATA: Bool)
    case comment(ArraySlice<UInt8>)
    case instruction(target: ArraySlice<UInt8>, data: ArraySlice<UInt8>)

    /// The event, its text a `String`.
    var event: XMLEvent {
        switch self {
        case .start(let name, let attributes): .startElement(name, attributes: attributes)
        case .end(let name): .endElement(name)
        case .text(let bytes, let isCDATA):
            isCDATA ? .cdata(String(decoding: bytes, as: UTF8.self)) : .text(String(decoding: bytes, as: UTF8.self))
        case .comment(let bytes): .comment(String(decoding: bytes, as: UTF8.self))
        case .instruction(let target, let data):
            .processingInstruction(
                target: String(decoding: target, as: UTF8.self),
                data: String(decoding: data, as: UTF8.self)
            )
        }
    }
}
