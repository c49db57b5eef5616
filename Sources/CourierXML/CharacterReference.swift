/// Character references (`&amp;`, `&#233;`, `&#xE9;`, `&eacute;`), read the same way by the XML
/// tokenizer and by the HTML-to-text conversion.
///
/// The generic readers are inlinable: the feed module reads HTML with them, and across a
/// module boundary an unspecialized generic walks its bytes through witness tables (it made
/// the feed benchmark 18% slower).
package enum CharacterReference {
    /// The name of the reference whose `&` is at `index` (between `&` and `;`: up to 32 bytes
    /// of an XML name or `#`), and where reading continues after its `;`; `nil` when no
    /// reference starts there.
    @inlinable
    package static func name<Bytes: RandomAccessCollection<UInt8>>(
        in bytes: Bytes,
        at index: Int
    ) -> (name: Range<Int>, next: Int)? where Bytes.Index == Int {
        var end = index + 1
        while end < bytes.endIndex, end - index <= 33,
            ByteScan.isNameByte(bytes[end]) || bytes[end] == UInt8(ascii: "#")
        {
            end += 1
        }
        guard end < bytes.endIndex, bytes[end] == UInt8(ascii: ";"), end > index + 1 else { return nil }
        return ((index + 1)..<end, end + 1)
    }

    /// The character of one of XML's five predefined entities (`lt`, `gt`, `amp`, `quot`, `apos`).
    @inlinable
    package static func predefined(_ name: some Collection<UInt8>) -> UInt8? {
        switch name.count {
        case 2 where name.dropFirst().first == UInt8(ascii: "t"):
            switch name.first {
            case UInt8(ascii: "l"): UInt8(ascii: "<")
            case UInt8(ascii: "g"): UInt8(ascii: ">")
            default: nil
            }
        case 3: name.elementsEqual("amp".utf8) ? UInt8(ascii: "&") : nil
        case 4:
            name.elementsEqual("quot".utf8)
                ? UInt8(ascii: "\"") : name.elementsEqual("apos".utf8) ? UInt8(ascii: "'") : nil
        default: nil
        }
    }

    /// The character a numeric reference's name (`#233`, `#xE9`) stands for; `nil` when it
    /// names none (including NUL). `nil` too for a name that is not numeric.
    @inlinable
    package static func numeric(_ name: some Collection<UInt8>) -> Unicode.Scalar? {
        guard name.first == UInt8(ascii: "#") else { return nil }
        let digits = name.dropFirst()
        let isHex = digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X")
        let text = String(decoding: isHex ? digits.dropFirst() : digits, as: UTF8.self)
        guard let value = UInt32(text, radix: isHex ? 16 : 10), value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    /// The character an HTML reference stands for: numeric, predefined or one of HTML 4's
    /// named characters.
    @inlinable
    package static func html(_ name: some Collection<UInt8>) -> Unicode.Scalar? {
        if name.first == UInt8(ascii: "#") { return numeric(name) }
        if let byte = predefined(name) { return Unicode.Scalar(byte) }
        return HTMLEntities.named[String(decoding: name, as: UTF8.self)]
    }
}
