/// The document type's internal subset, and entity and character references.
extension XMLTokenizer {
    /// `<!DOCTYPE …>` with an internal subset, or another `<!…>` declaration (skipped).
    mutating func declaration(final: Bool) throws(XMLError) -> Bool {
        guard let end = tagEnd(from: position + 2, kind: .declaration, brackets: true) else {
            return incomplete(final: final, .declaration)
        }
        let body = buffer[(position + 2)..<end]
        if body.starts(with: "DOCTYPE".utf8) {
            // One document type, before the root: another one declares nothing, so entity
            // tables cannot grow with the document.
            if sawRoot || sawDoctype {
                problem("a document type declaration after the first or after the root element")
            } else if let open = body.firstIndex(of: UInt8(ascii: "[")) {
                declareEntities(in: body[(open + 1)...])
            }
            sawDoctype = true
        }
        position = end + 1
        return true
    }

    /// Reads `<!ENTITY name "value">` declarations; external ones (`SYSTEM`, `PUBLIC`) are
    /// recorded but never fetched, and parameter entities are ignored.
    mutating func declareEntities(in subset: ArraySlice<UInt8>) {
        var rest = subset
        while let start = rest.firstRange(of: "<!ENTITY".utf8) {
            rest = rest[start.upperBound...].drop(while: ByteScan.isSpace)
            if rest.first == UInt8(ascii: "%") { continue }
            let nameEnd = rest.firstIndex(where: ByteScan.isSpace) ?? rest.endIndex
            let name = String(decoding: rest[..<nameEnd], as: UTF8.self)
            rest = rest[nameEnd...].drop(while: ByteScan.isSpace)
            if rest.starts(with: "SYSTEM".utf8) || rest.starts(with: "PUBLIC".utf8) {
                externalEntities.insert(name)
                continue
            }
            guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
            let value = rest.dropFirst()
            guard let close = value.firstIndex(of: quote) else { continue }
            if entities[name] == nil { entities[name] = Array(value[..<close]) }
            rest = value[(close + 1)...]
        }
    }

    /// `bytes` with character and entity references replaced.
    mutating func decodeReferences(_ bytes: ArraySlice<UInt8>, depth: Int = 0) throws(XMLError) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "&")) else { return Array(bytes) }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                // The run up to the next reference, at once.
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
                result.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            guard let (range, next) = CharacterReference.name(in: bytes, at: index) else {
                problem("a bare '&'")
                result.append(byte)
                index += 1
                continue
            }
            index = next
            if let predefined = CharacterReference.predefined(bytes[range]) {
                result.append(predefined)
                continue
            }
            let name = String(decoding: bytes[range], as: UTF8.self)
            if bytes[range.lowerBound] == UInt8(ascii: "#") {
                guard let scalar = CharacterReference.numeric(bytes[range]) else {
                    problem("the character reference &\(name); names no character")
                    result.append(contentsOf: "\u{FFFD}".utf8)
                    continue
                }
                result.append(contentsOf: String(scalar).utf8)
                continue
            }
            if let value = entities[name] {
                guard depth < 8 else { throw .limitExceeded(.entityNesting(8)) }
                // Each expansion counts at least one, so entities of nothing cannot be expanded
                // for ever without reaching the limit.
                try count(expansion: 1)
                let expanded = try decodeReferences(value[...], depth: depth + 1)
                try count(expansion: expanded.count)
                result.append(contentsOf: expanded)
                continue
            }
            if externalEntities.contains(name) {
                problem("the external entity &\(name); is not loaded")
                try count(expansion: 1)
                continue
            }
            if let scalar = HTMLEntities.named[name] {
                problem("the HTML entity &\(name); is not defined in XML")
                result.append(contentsOf: String(scalar).utf8)
                continue
            }
            problem("the undefined entity &\(name);")
            result.append(contentsOf: "&\(name);".utf8)
        }
        return result
    }

    /// Counts entity expansion toward ``XMLLimits/maximumEntityExpansion``.
    private mutating func count(expansion more: Int) throws(XMLError) {
        expansion += more
        if expansion > limits.maximumEntityExpansion {
            throw .limitExceeded(.entityExpansion(limits.maximumEntityExpansion))
        }
    }
}
