/// Start and end tags, and their attributes.
extension XMLTokenizer {
    mutating func startTag(
        _ body: ArraySlice<UInt8>,
        isEmpty: Bool,
        emit: (XMLEvent) throws(FeedError) -> Void
    ) throws(FeedError) {
        let nameEnd = body.firstIndex(where: ByteScan.isSpace) ?? body.endIndex
        let name = String(decoding: body[..<nameEnd], as: UTF8.self)
        let attributes = try parseAttributes(body[nameEnd...])
        if openElements.isEmpty {
            if sawRoot { problem("a second root element <\(name)>") }
            sawRoot = true
        }
        if !isEmpty {
            if openElements.count >= limits.maximumDepth {
                throw .limitExceeded(.depth(limits.maximumDepth))
            }
            openElements.append(name)
        }
        try emit(.start(name: name, attributes: attributes, isEmpty: isEmpty))
        if isEmpty { try emit(.end(name: name)) }
    }

    mutating func endTag(_ name: String, emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError) {
        guard let index = openElements.lastIndex(of: name) else {
            problem("</\(name)> closes nothing")
            return
        }
        if index != openElements.count - 1 { problem("</\(name)> closes <\(openElements.last ?? "")>") }
        while openElements.count > index {
            try emit(.end(name: openElements.removeLast()))
        }
    }

    /// How many attributes of one tag are kept (and checked for duplicates); the rest are read
    /// and dropped. A feed needs a handful; a hash set of a million names costs more per name
    /// as it outgrows the caches.
    static let maximumAttributes = 1024

    mutating func parseAttributes(_ bytes: ArraySlice<UInt8>) throws(FeedError) -> [XMLAttribute] {
        var attributes: [XMLAttribute] = []
        var names: Set<String> = []  // a tag may hold many: no pairwise comparison
        var rest = bytes.drop(while: ByteScan.isSpace)
        while let first = rest.first {
            let nameEnd =
                rest.firstIndex { ByteScan.isSpace($0) || $0 == UInt8(ascii: "=") } ?? rest.endIndex
            let name = String(decoding: rest[..<nameEnd], as: UTF8.self)
            rest = rest[nameEnd...].drop(while: ByteScan.isSpace)
            guard rest.first == UInt8(ascii: "=") else {
                problem("the attribute \(name) has no value")
                if !name.isEmpty, attributes.count < Self.maximumAttributes, names.insert(name).inserted {
                    attributes.append(XMLAttribute(name: name, value: name))
                }
                // A byte that starts no name (`=`, `/`) is passed over, so the loop moves on.
                if name.isEmpty, rest.first == first { rest = rest.dropFirst() }
                continue
            }
            rest = rest.dropFirst().drop(while: ByteScan.isSpace)
            var value: ArraySlice<UInt8>
            if let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                let afterQuote = rest.dropFirst()
                let close = afterQuote.firstIndex(of: quote) ?? afterQuote.endIndex
                value = afterQuote[..<close]
                rest = close < afterQuote.endIndex ? afterQuote[(close + 1)...] : afterQuote[close...]
            } else {
                problem("the value of \(name) is not quoted")
                let end = rest.firstIndex(where: ByteScan.isSpace) ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            if value.contains(UInt8(ascii: "<")) { problem("'<' in the value of \(name)") }
            var decoded = try decodeReferences(value)
            if decoded.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                // Attribute-value normalization: each line end (CR LF being one) and tab is a space.
                var normalized: [UInt8] = []
                normalized.reserveCapacity(decoded.count)
                for (offset, byte) in decoded.enumerated() {
                    if byte == 0x0A, offset > 0, decoded[offset - 1] == 0x0D { continue }
                    normalized.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
                }
                decoded = normalized
            }
            if attributes.count >= Self.maximumAttributes {
                problem("a tag has more than \(Self.maximumAttributes) attributes")
            } else if names.insert(name).inserted {
                attributes.append(XMLAttribute(name: name, value: String(decoding: decoded, as: UTF8.self)))
            } else {
                problem("the attribute \(name) appears twice")
            }
            rest = rest.drop(while: ByteScan.isSpace)
        }
        return attributes
    }
}
