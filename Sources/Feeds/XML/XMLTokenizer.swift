#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming, forgiving XML tokenizer for feeds.
///
/// It takes UTF-8 in chunks of any size and emits ``XMLEvent``s as soon as each is complete,
/// keeping only the unfinished tail in memory. It never loads anything from outside the
/// document: external entities are recorded and left empty. Well-formedness errors (a bare
/// `&`, an HTML entity XML does not define, a mismatched or missing end tag, a truncated file)
/// are recovered from the way a lenient reader would, and clear ``isWellFormed``. Limits on
/// depth, entity expansion, document and token size end the parse with a ``FeedError``.
struct XMLTokenizer {
    let limits: XMLLimits
    /// False once anything was not well-formed XML; ``firstProblem`` says what.
    private(set) var isWellFormed = true
    /// The first well-formedness problem found.
    private(set) var firstProblem: String?

    private var buffer: [UInt8] = []
    private var position = 0
    private var openElements: [String] = []
    private var sawRoot = false
    private var entities: [String: [UInt8]] = [:]
    private var externalEntities: Set<String> = []
    private var expansion = 0
    /// How far the search for the end of the unfinished token at `position` got, so that the
    /// next chunk resumes there: scanning the token again from its start on every chunk made
    /// input trickled in small pieces quadratic in the token's length.
    private var scan = PendingScan()

    init(limits: XMLLimits = XMLLimits()) {
        self.limits = limits
    }

    // MARK: - Input

    /// Adds the next bytes of UTF-8 and emits every event they complete.
    mutating func feed(_ bytes: some Collection<UInt8>, emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError) {
        buffer.append(contentsOf: bytes)
        try drain(final: false, emit: emit)
    }

    /// Ends the input: emits what is left, and closes elements left open (not well-formed).
    mutating func finish(emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError) {
        try drain(final: true, emit: emit)
        if !openElements.isEmpty { problem("the document ends before </\(openElements.last ?? "")>") }
        while let name = openElements.popLast() { try emit(.end(name: name)) }
        if !sawRoot { problem("the document has no root element") }
    }

    private mutating func problem(_ reason: String) {
        if isWellFormed { firstProblem = reason }
        isWellFormed = false
    }

    // MARK: - Tokens

    private mutating func drain(final: Bool, emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError) {
        while position < buffer.count {
            let start = position
            if buffer[position] == UInt8(ascii: "<") {
                guard try markup(final: final, emit: emit) else { break }
            } else {
                let from = resume(.text, at: position)
                let end = Self.index(of: UInt8(ascii: "<"), in: buffer, from: from) ?? buffer.count
                if end == buffer.count, !final {
                    guard end - position > limits.maximumTokenSize else {
                        suspend(.text, at: end)
                        break
                    }
                    throw .limitExceeded(.tokenSize(limits.maximumTokenSize))
                }
                try text(buffer[position..<end], emit: emit)
                position = end
            }
            if position != start { scan = PendingScan() }
        }
        if position > 1 << 16 || position == buffer.count {
            buffer.removeFirst(position)
            position = 0
        }
        if buffer.count > limits.maximumTokenSize {
            throw .limitExceeded(.tokenSize(limits.maximumTokenSize))
        }
    }

    private mutating func text(_ bytes: ArraySlice<UInt8>, emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError)
    {
        // Most text is the white space between tags, with no reference: passed on as it is.
        let decoded = bytes.contains(UInt8(ascii: "&")) ? try decodeReferences(bytes)[...] : bytes
        if openElements.isEmpty {
            if !decoded.allSatisfy(Self.isSpace) { problem("text outside the root element") }
            return
        }
        try emit(.text(decoded))
    }

    /// Handles the markup at `position`; false when it is not complete yet.
    private mutating func markup(final: Bool, emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError) -> Bool {
        let rest = buffer[position...]
        // Most markup is a tag: `<!` and `<?` are looked at only when they are there.
        if rest.count >= 2, Self.isNameStart(buffer[position + 1]) || buffer[position + 1] == UInt8(ascii: "/") {
            return try tag(final: final, emit: emit)
        }
        if rest.starts(with: Self.commentOpen) {
            return skip(until: "-->", from: 4, final: final, kind: .comment)
        }
        if rest.starts(with: Self.cdataOpen) {
            guard let end = find("]]>", from: position + 9, kind: .cdata) else {
                guard final else { return false }
                problem("an unterminated CDATA section")
                try emitCDATA(buffer[(position + 9)...], emit: emit)
                position = buffer.count
                return true
            }
            try emitCDATA(buffer[(position + 9)..<end], emit: emit)
            position = end + 3
            return true
        }
        if rest.starts(with: [UInt8(ascii: "<"), UInt8(ascii: "?")]) {
            return skip(until: "?>", from: 2, final: final, kind: .instruction)
        }
        if rest.starts(with: [UInt8(ascii: "<"), UInt8(ascii: "!")]) {
            return try declaration(final: final)
        }
        if rest.count < 2 {
            guard final else { return false }
            problem("a document that ends with '<'")
            position = buffer.count
            return true
        }
        return try tag(final: final, emit: emit)
    }

    private static let commentOpen = Array("<!--".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8)

    /// A start or end tag at `position`, or a `<` that starts none; false when it is not complete yet.
    private mutating func tag(final: Bool, emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError) -> Bool {
        let next = buffer[position + 1]
        if next == UInt8(ascii: "/") {
            guard let end = tagEnd(from: position + 2, kind: .endTag) else {
                return incomplete(final: final, what: "end tag")
            }
            let name = String(decoding: buffer[(position + 2)..<end], as: UTF8.self).trimmingXMLSpace()
            position = end + 1
            try endTag(name, emit: emit)
            return true
        }
        guard Self.isNameStart(next) else {
            problem("'<' that does not start a tag")
            try text(buffer[position..<(position + 1)], emit: emit)
            position += 1
            return true
        }
        guard let end = tagEnd(from: position + 1, kind: .startTag) else {
            return incomplete(final: final, what: "start tag")
        }
        var body = buffer[(position + 1)..<end]
        let isEmpty = body.last == UInt8(ascii: "/")
        if isEmpty { body = body.dropLast() }
        position = end + 1
        try startTag(body, isEmpty: isEmpty, emit: emit)
        return true
    }

    /// Where the scan of a token of `kind` starting at `start` resumes: after the bytes an
    /// earlier chunk's scan of the same token already looked at.
    private func resume(_ kind: PendingScan.Kind, at start: Int) -> Int {
        scan.kind == kind ? max(start, position + scan.offset) : start
    }

    /// Remembers that the token at `position` was scanned up to `index` without finding its end.
    private mutating func suspend(_ kind: PendingScan.Kind, at index: Int, quote: UInt8? = nil, brackets: Int = 0) {
        scan = PendingScan(kind: kind, offset: index - position, quote: quote, brackets: brackets)
    }

    private mutating func incomplete(final: Bool, what: String) -> Bool {
        guard final else { return false }
        problem("an unterminated \(what)")
        position = buffer.count
        return true
    }

    private mutating func skip(until terminator: String, from offset: Int, final: Bool, kind: PendingScan.Kind) -> Bool
    {
        guard let end = find(terminator, from: position + offset, kind: kind) else {
            return incomplete(final: final, what: kind.description)
        }
        position = end + terminator.utf8.count
        return true
    }

    /// The index of the first `terminator` at or after `start` (or after where an earlier
    /// search for the same token stopped).
    private mutating func find(_ terminator: String, from start: Int, kind: PendingScan.Kind) -> Int? {
        let needle = Array(terminator.utf8)
        guard let first = needle.first, start <= buffer.count else { return nil }
        var index = max(start, resume(kind, at: position))
        while let found = Self.index(of: first, in: buffer, from: index) {
            if buffer[found...].starts(with: needle) { return found }
            index = found + 1
        }
        // The last bytes may be the start of the terminator: look at them again next time.
        suspend(kind, at: max(start, buffer.count - (needle.count - 1)))
        return nil
    }

    /// The index of the `>` that ends a tag starting at `start`, skipping quoted values.
    private mutating func tagEnd(from start: Int, kind: PendingScan.Kind) -> Int? {
        var quote: UInt8?
        var index = start
        if scan.kind == kind {
            index = max(start, position + scan.offset)
            quote = scan.quote
        }
        while index < buffer.count {
            let byte = buffer[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        suspend(kind, at: index, quote: quote)
        return nil
    }

    private mutating func emitCDATA(
        _ bytes: ArraySlice<UInt8>,
        emit: (XMLEvent) throws(FeedError) -> Void
    ) throws(FeedError) {
        guard !openElements.isEmpty else {
            problem("a CDATA section outside the root element")
            return
        }
        try emit(.cdata(bytes))
    }

    // MARK: - Elements

    private mutating func startTag(
        _ body: ArraySlice<UInt8>,
        isEmpty: Bool,
        emit: (XMLEvent) throws(FeedError) -> Void
    ) throws(FeedError) {
        let nameEnd = body.firstIndex(where: Self.isSpace) ?? body.endIndex
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

    private mutating func endTag(_ name: String, emit: (XMLEvent) throws(FeedError) -> Void) throws(FeedError) {
        guard let index = openElements.lastIndex(of: name) else {
            problem("</\(name)> closes nothing")
            return
        }
        if index != openElements.count - 1 { problem("</\(name)> closes <\(openElements.last ?? "")>") }
        while openElements.count > index {
            try emit(.end(name: openElements.removeLast()))
        }
    }

    private mutating func parseAttributes(_ bytes: ArraySlice<UInt8>) throws(FeedError) -> [XMLAttribute] {
        var attributes: [XMLAttribute] = []
        var names: Set<String> = []  // a tag may hold many: no pairwise comparison
        var rest = bytes.drop(while: Self.isSpace)
        while let first = rest.first {
            let nameEnd =
                rest.firstIndex { Self.isSpace($0) || $0 == UInt8(ascii: "=") } ?? rest.endIndex
            let name = String(decoding: rest[..<nameEnd], as: UTF8.self)
            rest = rest[nameEnd...].drop(while: Self.isSpace)
            guard rest.first == UInt8(ascii: "=") else {
                problem("the attribute \(name) has no value")
                if !name.isEmpty, names.insert(name).inserted {
                    attributes.append(XMLAttribute(name: name, value: name))
                }
                if rest.first == first { rest = rest.dropFirst() }
                continue
            }
            rest = rest.dropFirst().drop(while: Self.isSpace)
            var value: ArraySlice<UInt8>
            if let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                let afterQuote = rest.dropFirst()
                let close = afterQuote.firstIndex(of: quote) ?? afterQuote.endIndex
                value = afterQuote[..<close]
                rest = close < afterQuote.endIndex ? afterQuote[(close + 1)...] : afterQuote[close...]
            } else {
                problem("the value of \(name) is not quoted")
                let end = rest.firstIndex(where: Self.isSpace) ?? rest.endIndex
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
            if names.insert(name).inserted {
                attributes.append(XMLAttribute(name: name, value: String(decoding: decoded, as: UTF8.self)))
            } else {
                problem("the attribute \(name) appears twice")
            }
            rest = rest.drop(while: Self.isSpace)
        }
        return attributes
    }

    // MARK: - Declarations and entities

    /// `<!DOCTYPE …>` with an internal subset, or another `<!…>` declaration (skipped).
    private mutating func declaration(final: Bool) throws(FeedError) -> Bool {
        var index = position + 2
        var quote: UInt8?
        var bracketDepth = 0
        if scan.kind == .declaration {
            index = max(index, position + scan.offset)
            quote = scan.quote
            bracketDepth = scan.brackets
        }
        while index < buffer.count {
            let byte = buffer[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if byte == UInt8(ascii: "]") {
                bracketDepth = max(0, bracketDepth - 1)
            } else if byte == UInt8(ascii: ">"), bracketDepth == 0 {
                let body = buffer[(position + 2)..<index]
                if body.starts(with: "DOCTYPE".utf8), let open = body.firstIndex(of: UInt8(ascii: "[")) {
                    declareEntities(in: body[(open + 1)...])
                }
                position = index + 1
                return true
            }
            index += 1
        }
        suspend(.declaration, at: index, quote: quote, brackets: bracketDepth)
        return incomplete(final: final, what: "declaration")
    }

    /// Reads `<!ENTITY name "value">` declarations; external ones (`SYSTEM`, `PUBLIC`) are
    /// recorded but never fetched, and parameter entities are ignored.
    private mutating func declareEntities(in subset: ArraySlice<UInt8>) {
        var rest = subset
        while let start = rest.firstRange(of: "<!ENTITY".utf8) {
            rest = rest[start.upperBound...].drop(while: Self.isSpace)
            if rest.first == UInt8(ascii: "%") { continue }
            let nameEnd = rest.firstIndex(where: Self.isSpace) ?? rest.endIndex
            let name = String(decoding: rest[..<nameEnd], as: UTF8.self)
            rest = rest[nameEnd...].drop(while: Self.isSpace)
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
    private mutating func decodeReferences(_ bytes: ArraySlice<UInt8>, depth: Int = 0) throws(FeedError) -> [UInt8] {
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
            let nameStart = index + 1
            let semicolon = bytes[nameStart...].prefix(32).firstIndex(of: UInt8(ascii: ";"))
            guard let semicolon, semicolon > nameStart,
                bytes[nameStart..<semicolon].allSatisfy({ Self.isNameByte($0) || $0 == UInt8(ascii: "#") })
            else {
                problem("a bare '&'")
                result.append(byte)
                index += 1
                continue
            }
            index = semicolon + 1
            if let predefined = Self.predefined(bytes[nameStart..<semicolon]) {
                result.append(predefined)
                continue
            }
            let name = String(decoding: bytes[nameStart..<semicolon], as: UTF8.self)
            if name.hasPrefix("#") {
                result.append(contentsOf: characterReference(name))
                continue
            }
            if let value = entities[name] {
                guard depth < 8 else { throw .limitExceeded(.entityNesting(8)) }
                let expanded = try decodeReferences(value[...], depth: depth + 1)
                expansion += expanded.count
                if expansion > limits.maximumEntityExpansion {
                    throw .limitExceeded(.entityExpansion(limits.maximumEntityExpansion))
                }
                result.append(contentsOf: expanded)
                continue
            }
            if externalEntities.contains(name) {
                problem("the external entity &\(name); is not loaded")
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

    private mutating func characterReference(_ name: String) -> [UInt8] {
        let digits = name.dropFirst()
        let value: UInt32? =
            digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
            problem("the character reference &\(name); names no character")
            return Array("\u{FFFD}".utf8)
        }
        return Array(String(scalar).utf8)
    }

    /// The character of XML's five predefined entities (`lt`, `gt`, `amp`, `quot`, `apos`).
    private static func predefined(_ name: ArraySlice<UInt8>) -> UInt8? {
        switch name.count {
        case 2 where name.last == UInt8(ascii: "t"):
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

    // MARK: - Bytes

    /// The first `byte` in `bytes` at or after `start` (memchr).
    static func index(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + start, Int32(byte), buffer.count - start)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}

extension String {
    /// Without leading and trailing XML white space.
    func trimmingXMLSpace() -> String {
        let bytes = utf8.drop(while: XMLTokenizer.isSpace)
        let end =
            bytes.lastIndex(where: { !XMLTokenizer.isSpace($0) }).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(Substring(bytes[bytes.startIndex..<end]))
    }
}
