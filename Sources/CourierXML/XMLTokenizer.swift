/// A streaming, forgiving XML tokenizer: what ``XMLEventReader`` and the feed parser read with.
///
/// It takes UTF-8 in chunks of any size and emits ``XMLToken``s as soon as each is complete,
/// keeping only the unfinished tail in memory. It never loads anything from outside the
/// document: external entities are recorded and left empty. Well-formedness errors (a bare
/// `&`, an HTML entity XML does not define, a mismatched or missing end tag, a truncated file)
/// are recovered from the way a lenient reader would, and clear ``isWellFormed``. Limits on
/// depth, entity expansion, document and token size end the parse with an ``XMLError``.
package struct XMLTokenizer {
    package let limits: XMLLimits
    /// False once anything was not well-formed XML; ``firstProblem`` says what.
    package private(set) var isWellFormed = true
    /// The first well-formedness problem found.
    package private(set) var firstProblem: String?

    var buffer: [UInt8] = []
    var position = 0
    var openElements: [String] = []
    var sawRoot = false
    var sawDoctype = false
    var entities: [String: [UInt8]] = [:]
    var externalEntities: Set<String> = []
    var expansion = 0
    /// How far the search for the end of the unfinished token at `position` got, so that the
    /// next chunk resumes there: scanning the token again from its start on every chunk made
    /// input trickled in small pieces quadratic in the token's length.
    var scan = PendingScan()
    /// How many bytes the searches for the ends of tokens have looked at: linear in the input
    /// whatever it holds, however it is cut (the tests check it).
    package var scanned = 0

    package init(limits: XMLLimits = XMLLimits()) {
        self.limits = limits
    }

    // MARK: - Input

    /// Adds the next bytes of UTF-8 and emits every event they complete.
    package mutating func feed(
        _ bytes: some Collection<UInt8>,
        emit: (XMLToken) throws(XMLError) -> Void
    ) throws(XMLError) {
        buffer.append(contentsOf: bytes)
        try drain(final: false, emit: emit)
    }

    /// Ends the input: emits what is left, and closes elements left open (not well-formed).
    package mutating func finish(emit: (XMLToken) throws(XMLError) -> Void) throws(XMLError) {
        try drain(final: true, emit: emit)
        if !openElements.isEmpty { problem("the document ends before </\(openElements.last ?? "")>") }
        while let name = openElements.popLast() { try emit(.end(name: name)) }
        if !sawRoot { problem("the document has no root element") }
    }

    mutating func problem(_ reason: String) {
        if isWellFormed { firstProblem = reason }
        isWellFormed = false
    }

    // MARK: - Tokens

    mutating func drain(final: Bool, emit: (XMLToken) throws(XMLError) -> Void) throws(XMLError) {
        while position < buffer.count {
            let start = position
            if buffer[position] == UInt8(ascii: "<") {
                guard try markup(final: final, emit: emit) else { break }
            } else {
                let from = resume(.text, at: position)
                let end = ByteScan.index(of: UInt8(ascii: "<"), in: buffer, from: from) ?? buffer.count
                scanned += end - from
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

    mutating func text(_ bytes: ArraySlice<UInt8>, emit: (XMLToken) throws(XMLError) -> Void) throws(XMLError) {
        // Most text is the white space between tags, with no reference: passed on as it is.
        let decoded = bytes.contains(UInt8(ascii: "&")) ? try decodeReferences(bytes)[...] : bytes
        if openElements.isEmpty {
            if !decoded.allSatisfy(ByteScan.isSpace) { problem("text outside the root element") }
            return
        }
        try emit(.text(decoded))
    }

    /// Handles the markup at `position`; false when it is not complete yet.
    mutating func markup(final: Bool, emit: (XMLToken) throws(XMLError) -> Void) throws(XMLError) -> Bool {
        let rest = buffer[position...]
        // Most markup is a tag: `<!` and `<?` are looked at only when they are there.
        if rest.count >= 2, ByteScan.isNameStart(buffer[position + 1]) || buffer[position + 1] == UInt8(ascii: "/") {
            return try tag(final: final, emit: emit)
        }
        if rest.starts(with: Self.commentOpen) {
            guard let end = find("-->", from: position + 4, kind: .comment) else {
                return incomplete(final: final, .comment)
            }
            try emit(.comment(buffer[(position + 4)..<end]))
            position = end + 3
            return true
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
            guard let end = find("?>", from: position + 2, kind: .instruction) else {
                return incomplete(final: final, .instruction)
            }
            try instruction(buffer[(position + 2)..<end], emit: emit)
            position = end + 2
            return true
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

    static let commentOpen = Array("<!--".utf8)
    static let cdataOpen = Array("<![CDATA[".utf8)

    /// A start or end tag at `position`, or a `<` that starts none; false when it is not complete yet.
    mutating func tag(final: Bool, emit: (XMLToken) throws(XMLError) -> Void) throws(XMLError) -> Bool {
        let next = buffer[position + 1]
        if next == UInt8(ascii: "/") {
            guard let end = tagEnd(from: position + 2, kind: .endTag) else {
                return incomplete(final: final, .endTag)
            }
            var nameStart = position + 2
            var nameEnd = end
            while nameStart < nameEnd, ByteScan.isSpace(buffer[nameStart]) { nameStart += 1 }
            while nameEnd > nameStart, ByteScan.isSpace(buffer[nameEnd - 1]) { nameEnd -= 1 }
            position = end + 1
            // Most end tags close the element open last: compared as bytes, no name is made.
            if let last = openElements.last, last.utf8.elementsEqual(buffer[nameStart..<nameEnd]) {
                openElements.removeLast()
                try emit(.end(name: last))
                return true
            }
            try endTag(String(decoding: buffer[nameStart..<nameEnd], as: UTF8.self), emit: emit)
            return true
        }
        guard ByteScan.isNameStart(next) else {
            problem("'<' that does not start a tag")
            try text(buffer[position..<(position + 1)], emit: emit)
            position += 1
            return true
        }
        guard let end = tagEnd(from: position + 1, kind: .startTag) else {
            return incomplete(final: final, .startTag)
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
    func resume(_ kind: PendingScan.Kind, at start: Int) -> Int {
        scan.kind == kind ? max(start, position + scan.offset) : start
    }

    /// Remembers that the token at `position` was scanned up to `index` without finding its end.
    mutating func suspend(_ kind: PendingScan.Kind, at index: Int, quote: UInt8? = nil, brackets: Int = 0) {
        scan = PendingScan(kind: kind, offset: index - position, quote: quote, brackets: brackets)
    }

    /// At the end of the input, a token of `kind` that never ended: a problem, and the rest is
    /// read; before the end, `false`, to wait for more.
    mutating func incomplete(final: Bool, _ kind: PendingScan.Kind) -> Bool {
        guard final else { return false }
        problem("an unterminated \(kind)")
        position = buffer.count
        return true
    }

    /// `<?target data?>`, but not the XML declaration, which says how the document is written.
    mutating func instruction(_ body: ArraySlice<UInt8>, emit: (XMLToken) throws(XMLError) -> Void) throws(XMLError) {
        let targetEnd = body.firstIndex(where: ByteScan.isSpace) ?? body.endIndex
        let target = body[..<targetEnd]
        if target.elementsEqual("xml".utf8) { return }
        try emit(.instruction(target: target, data: body[targetEnd...].drop(while: ByteScan.isSpace)))
    }

    /// The index of the first `terminator` at or after `start` (or after where an earlier
    /// search for the same token stopped).
    mutating func find(_ terminator: String, from start: Int, kind: PendingScan.Kind) -> Int? {
        let needle = Array(terminator.utf8)
        guard start <= buffer.count else { return nil }
        let from = max(start, resume(kind, at: position))
        if let found = ByteScan.index(of: needle, in: buffer, from: from) {
            scanned += found + needle.count - from
            return found
        }
        scanned += buffer.count - from
        // The last bytes may be the start of the terminator: look at them again next time.
        suspend(kind, at: max(start, buffer.count - (needle.count - 1)))
        return nil
    }

    /// The index of the `>` that ends a tag starting at `start`, skipping quoted values (and,
    /// with `brackets`, a declaration's `[…]`); `nil`, remembering how far it looked, when the
    /// end has not arrived yet.
    mutating func tagEnd(from start: Int, kind: PendingScan.Kind, brackets: Bool = false) -> Int? {
        var quote: UInt8?
        var depth = 0
        var index = start
        if scan.kind == kind {
            index = max(start, position + scan.offset)
            quote = scan.quote
            depth = scan.brackets
        }
        let scanStart = index
        defer { scanned += index - scanStart }
        while index < buffer.count {
            let byte = buffer[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if brackets, byte == UInt8(ascii: "[") {
                depth += 1
            } else if brackets, byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">"), depth == 0 {
                return index
            }
            index += 1
        }
        suspend(kind, at: index, quote: quote, brackets: depth)
        return nil
    }

    mutating func emitCDATA(
        _ bytes: ArraySlice<UInt8>,
        emit: (XMLToken) throws(XMLError) -> Void
    ) throws(XMLError) {
        guard !openElements.isEmpty else {
            problem("a CDATA section outside the root element")
            return
        }
        try emit(.cdata(bytes))
    }

}

extension String {
    /// Without leading and trailing XML white space.
    package func trimmingXMLSpace() -> String {
        let bytes = utf8.drop(while: ByteScan.isSpace)
        let end =
            bytes.lastIndex(where: { !ByteScan.isSpace($0) }).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(Substring(bytes[bytes.startIndex..<end]))
    }
}
