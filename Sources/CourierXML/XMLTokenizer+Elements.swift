/// Start and end tags, and their attributes.
extension XMLTokenizer {
    mutating func startTag(
        _ body: ArraySlice<UInt8>,
        isEmpty: Bool,
        emit: (XMLToken) throws(XMLError) -> Void
    ) throws(XMLError) {
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

    mutating func endTag(_ name: String, emit: (XMLToken) throws(XMLError) -> Void) throws(XMLError) {
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

    /// Up to this many attributes, a duplicate is looked for among the ones before; past it,
    /// in a set (a tag may hold many: no pairwise comparison).
    static let attributesComparedInPlace = 8

    mutating func parseAttributes(_ bytes: ArraySlice<UInt8>) throws(XMLError) -> [XMLToken.Attribute] {
        var attributes: [XMLToken.Attribute] = []
        var names: Set<String> = []  // filled once there are more than attributesComparedInPlace
        // Indices, not slices taken again and again: each new slice retains the buffer.
        let end = bytes.endIndex
        var index = bytes.startIndex
        while index < end, ByteScan.isSpace(bytes[index]) { index += 1 }
        while index < end {
            let first = index
            var nameEnd = index
            while nameEnd < end, !ByteScan.isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
            let name = String(decoding: bytes[index..<nameEnd], as: UTF8.self)
            index = nameEnd
            while index < end, ByteScan.isSpace(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == UInt8(ascii: "=") else {
                problem("the attribute \(name) has no value")
                if !name.isEmpty, attributes.count < Self.maximumAttributes, isNew(name, in: attributes, &names) {
                    attributes.append(XMLToken.Attribute(name: name, value: name))
                }
                // A byte that starts no name is passed over, so the loop moves on.
                if index == first { index += 1 }
                continue
            }
            index += 1
            while index < end, ByteScan.isSpace(bytes[index]) { index += 1 }
            let valueStart: Int
            let valueEnd: Int
            if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                let quote = bytes[index]
                valueStart = index + 1
                var close = valueStart
                while close < end, bytes[close] != quote { close += 1 }
                valueEnd = close
                index = close < end ? close + 1 : close
            } else {
                problem("the value of \(name) is not quoted")
                valueStart = index
                while index < end, !ByteScan.isSpace(bytes[index]) { index += 1 }
                valueEnd = index
            }
            let value = bytes[valueStart..<valueEnd]
            // One pass says whether the value needs more than copying (most do not).
            var plain = true
            for byte in value where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte < 0x20 {
                if byte == UInt8(ascii: "<") { problem("'<' in the value of \(name)") }
                plain = false
            }
            let text: String
            if plain {
                text = String(decoding: value, as: UTF8.self)
            } else {
                // Attribute-value normalization (XML 1.0 §3.3.3): each literal line end (CR LF
                // being one) and tab is a space; a character reference (`&#10;`) keeps its character.
                var literal = Array(value)
                if literal.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                    var normalized: [UInt8] = []
                    normalized.reserveCapacity(literal.count)
                    for (offset, byte) in literal.enumerated() {
                        if byte == 0x0A, offset > 0, literal[offset - 1] == 0x0D { continue }
                        normalized.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
                    }
                    literal = normalized
                }
                text = String(decoding: try decodeReferences(literal[...]), as: UTF8.self)
            }
            if name.isEmpty {
                problem("an attribute value without a name")
            } else if attributes.count >= Self.maximumAttributes {
                problem("a tag has more than \(Self.maximumAttributes) attributes")
            } else if isNew(name, in: attributes, &names) {
                attributes.append(XMLToken.Attribute(name: name, value: text))
            } else {
                problem("the attribute \(name) appears twice")
            }
            while index < end, ByteScan.isSpace(bytes[index]) { index += 1 }
        }
        return attributes
    }

    /// Whether no attribute before has `name`: compared in place while they are few, then in
    /// `names`, filled the first time.
    private func isNew(_ name: String, in attributes: [XMLToken.Attribute], _ names: inout Set<String>) -> Bool {
        if attributes.count < Self.attributesComparedInPlace {
            return !attributes.contains { $0.name == name }
        }
        if names.isEmpty { names = Set(attributes.map(\.name)) }
        return names.insert(name).inserted
    }
}
