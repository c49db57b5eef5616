/// XML read as it arrives, for any XML service: a SAX-style stream of ``XMLEvent``s with
/// namespaces resolved, from UTF-8 in chunks of any size.
///
/// ```swift
/// let response = try await client.stream(Endpoint<Data>(url: feedURL))
/// var reader = XMLEventReader()
/// let show = { (event: XMLEvent) in
///     if case .startElement(let name, let attributes) = event, name.localName == "enclosure" {
///         print(attributes.value(of: "url") ?? "")
///     }
/// }
/// for try await chunk in response.body {
///     try reader.read(chunk, show)
/// }
/// try reader.finish(show)
/// ```
///
/// The same guarantees as the feed parser, which reads with it:
/// - **Linear time, bounded memory.** Each byte is looked at a bounded number of times however
///   the input is cut; only the unfinished token, the names of open elements, the namespaces
///   in scope, the entities of the one document type and at most 2,048 short names already
///   resolved are kept. Nesting, one token's size, the document's size and entity expansion
///   are bounded by ``XMLLimits``; the namespaces in scope count toward
///   ``XMLLimits/maximumTokenSize``. Going past a limit throws ``XMLError``.
/// - **Nothing from outside.** External entities and DTDs are never loaded; a reference to one
///   is left empty. Entities declared in the document expand within the limits (no "billion
///   laughs").
/// - **Lenient.** A document that is not well-formed (a mismatched or missing end tag, a bare
///   `&`, an undeclared prefix, a truncated file) is read the way a forgiving reader would,
///   start and end events still paired; ``isWellFormed`` turns false and ``firstProblem`` says
///   what was wrong (the first problem of syntax, else the first of namespaces).
///
/// The input is UTF-8 (a byte order mark is skipped); convert other encodings first.
public struct XMLEventReader: Sendable {
    private var tokenizer: XMLTokenizer
    private var scopes = NamespaceScopes()
    private var openNames: [XMLName] = []
    private var size = 0
    private var atStart = true
    private var namespaceProblem: String?
    /// Names already resolved in the scopes open now, elements' and attributes' apart: the same
    /// few names come back on every element. Emptied when a namespace declaration opens or
    /// closes, and when it holds ``resolvedLimit`` names.
    private var resolvedElements: [String: XMLName] = [:]
    private var resolvedAttributes: [String: XMLName] = [:]
    private static let resolvedLimit = 1024
    /// The longest name the caches keep, in bytes.
    private static let resolvedNameLimit = 256

    /// A reader within `limits`.
    public init(limits: XMLLimits = XMLLimits()) {
        self.limits = limits
        tokenizer = XMLTokenizer(limits: limits)
    }

    /// The limits the reader stops at.
    public let limits: XMLLimits

    /// False once anything read was not well-formed XML (or not namespace-well-formed).
    public var isWellFormed: Bool { tokenizer.isWellFormed && namespaceProblem == nil }

    /// What was not well-formed, for people: the first problem of syntax, else the first of
    /// namespaces.
    public var firstProblem: String? { tokenizer.firstProblem ?? namespaceProblem }

    /// Reads the next bytes of the document, calling `handle` with every event they complete.
    ///
    /// - Throws: ``XMLError`` when the document goes past a limit; read no further.
    public mutating func read(_ bytes: some Collection<UInt8>, _ handle: (XMLEvent) -> Void) throws(XMLError) {
        try readPieces(bytes) { handle($0.event) }
    }

    /// The limit the document went past, thrown again by every later call.
    private var failure: XMLError?

    /// Reads the next bytes as ``read(_:_:)`` does, handing over text as bytes: for readers
    /// that want only some of it as a `String`.
    package mutating func readPieces(_ bytes: some Collection<UInt8>, _ handle: (XMLPiece) -> Void) throws(XMLError) {
        if let failure { throw failure }
        do throws(XMLError) {
            size += bytes.count
            if size > limits.maximumDocumentSize {
                throw .limitExceeded(.documentSize(limits.maximumDocumentSize))
            }
            guard atStart else { return try feed(bytes, handle) }
            // The first three bytes decide whether there is a byte order mark to skip; only
            // fewer than three are held.
            if pending.isEmpty, bytes.count >= 3 {
                atStart = false
                let mark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
                return try feed(mark ? bytes.dropFirst(3) : bytes[...], handle)
            }
            pending.append(contentsOf: bytes)
            if size >= 3 { try startDocument(handle) }
        } catch {
            failure = error
            throw error
        }
    }

    /// Bytes held until the first three have arrived.
    private var pending: [UInt8] = []

    /// Ends the document: emits what is left, and the end of every element left open.
    public mutating func finish(_ handle: (XMLEvent) -> Void) throws(XMLError) {
        try finishPieces { handle($0.event) }
    }

    /// Ends the document as ``finish(_:)`` does, handing over text as bytes.
    package mutating func finishPieces(_ handle: (XMLPiece) -> Void) throws(XMLError) {
        if let failure { throw failure }
        do throws(XMLError) {
            if atStart { try startDocument(handle) }
            var tokenizer = takeTokenizer()
            defer { self.tokenizer = tokenizer }
            try tokenizer.finish { token throws(XMLError) in try self.handle(token, handle) }
        } catch {
            failure = error
            throw error
        }
    }

    /// Reads the first bytes, held until there were three, without a byte order mark.
    private mutating func startDocument(_ handle: (XMLPiece) -> Void) throws(XMLError) {
        atStart = false
        let head = pending
        pending = []
        try feed(head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...], handle)
    }

    /// The tokenizer, moved out so that its buffer is not copied while this reader's own state
    /// changes with each token; put it back when done.
    private mutating func takeTokenizer() -> XMLTokenizer {
        let tokenizer = self.tokenizer
        self.tokenizer = XMLTokenizer(limits: tokenizer.limits)
        return tokenizer
    }

    /// Every event of a whole document.
    ///
    /// - Throws: ``XMLError`` when the document goes past a limit.
    public static func events(
        in document: some Collection<UInt8>,
        limits: XMLLimits = XMLLimits()
    ) throws(XMLError)
        -> [XMLEvent]
    {
        var reader = XMLEventReader(limits: limits)
        var events: [XMLEvent] = []
        try reader.read(document) { events.append($0) }
        try reader.finish { events.append($0) }
        return events
    }

    // MARK: - Tokens to events

    private mutating func feed(_ bytes: some Collection<UInt8>, _ handle: (XMLPiece) -> Void) throws(XMLError) {
        var tokenizer = takeTokenizer()
        defer { self.tokenizer = tokenizer }
        try tokenizer.feed(bytes) { token throws(XMLError) in try self.handle(token, handle) }
    }

    private mutating func handle(_ token: XMLToken, _ handle: (XMLPiece) -> Void) throws(XMLError) {
        switch token {
        case .start(let qualifiedName, let attributes, _):
            let (declared, problem) = try scopes.enter(attributes, budget: limits.maximumTokenSize)
            if declared { forgetResolvedNames() }
            if let problem { namespaceProblem(problem) }
            let name = resolve(qualifiedName, isElement: true)
            openNames.append(name)
            let resolved = attributes.map { attribute in
                XMLAttribute(name: resolve(attribute.name, isElement: false), value: attribute.value)
            }
            if resolved.count > 1 { checkExpandedNames(resolved) }
            handle(.start(name, attributes: resolved))
        case .end:
            let name = openNames.popLast() ?? XMLName(localName: "")
            if scopes.leave() { forgetResolvedNames() }
            handle(.end(name))
        case .text(let bytes): handle(.text(bytes, isCDATA: false))
        case .cdata(let bytes): handle(.text(bytes, isCDATA: true))
        case .comment(let bytes): handle(.comment(bytes))
        case .instruction(let target, let data): handle(.instruction(target: target, data: data))
        }
    }

    private mutating func namespaceProblem(_ problem: String) {
        if namespaceProblem == nil { namespaceProblem = problem }
    }

    /// Two attributes with the same namespace and local name (`a:k` and `b:k`, both prefixes
    /// bound to one namespace) are not namespace-well-formed.
    private mutating func checkExpandedNames(_ attributes: [XMLAttribute]) {
        // As written, the tokenizer checks them; resolved, only two in one namespace (both
        // prefixed: an unprefixed attribute is in none) can be one name. Few are compared in
        // place, without a string for each; many, in a set.
        var count = 0
        for attribute in attributes where Self.isInNamespace(attribute) { count += 1 }
        guard count > 1 else { return }
        if count <= 8 {
            for (index, attribute) in attributes.enumerated() where Self.isInNamespace(attribute) {
                for other in attributes[(index + 1)...] where Self.isInNamespace(other) {
                    if other.name.localName == attribute.name.localName,
                        other.name.namespaceURI == attribute.name.namespaceURI
                    {
                        return namespaceProblem("the attribute \(attribute.name) appears twice")
                    }
                }
            }
            return
        }
        var seen: Set<String> = []
        for attribute in attributes where Self.isInNamespace(attribute) {
            guard seen.insert(attribute.name.description).inserted else {
                return namespaceProblem("the attribute \(attribute.name) appears twice")
            }
        }
    }

    /// Whether `attribute` is in a namespace (and is no declaration of one).
    private static func isInNamespace(_ attribute: XMLAttribute) -> Bool {
        guard let uri = attribute.name.namespaceURI else { return false }
        return uri != XMLName.xmlnsNamespace
    }

    private mutating func forgetResolvedNames() {
        resolvedElements.removeAll(keepingCapacity: true)
        resolvedAttributes.removeAll(keepingCapacity: true)
    }

    /// `qualifiedName` with its prefix resolved in the scopes open now.
    private mutating func resolve(_ qualifiedName: String, isElement: Bool) -> XMLName {
        if let known = isElement ? resolvedElements[qualifiedName] : resolvedAttributes[qualifiedName] {
            return known
        }
        let name = resolveInScope(qualifiedName, isElement: isElement)
        // An undeclared prefix is resolved anew each time, so that its problem is reported;
        // a long name is not kept, so that the cache stays small whatever the names.
        guard name.prefix == nil || name.namespaceURI != nil, qualifiedName.utf8.count <= Self.resolvedNameLimit
        else { return name }
        if isElement {
            if resolvedElements.count >= Self.resolvedLimit { resolvedElements.removeAll(keepingCapacity: true) }
            resolvedElements[qualifiedName] = name
        } else {
            if resolvedAttributes.count >= Self.resolvedLimit { resolvedAttributes.removeAll(keepingCapacity: true) }
            resolvedAttributes[qualifiedName] = name
        }
        return name
    }

    private mutating func resolveInScope(_ qualifiedName: String, isElement: Bool) -> XMLName {
        let utf8 = qualifiedName.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else {
            if !isElement, qualifiedName == "xmlns" {
                return XMLName(namespaceURI: XMLName.xmlnsNamespace, localName: "xmlns")
            }
            // The default namespace is for elements only; an unprefixed attribute is in none.
            return XMLName(namespaceURI: isElement ? scopes.uri(for: "") : nil, localName: qualifiedName)
        }
        let prefix = String(Substring(utf8[..<colon]))
        let localName = String(Substring(utf8[utf8.index(after: colon)...]))
        guard !prefix.isEmpty, !localName.isEmpty, !localName.utf8.contains(UInt8(ascii: ":")) else {
            namespaceProblem("the name \(qualifiedName) is not a qualified name")
            return XMLName(localName: qualifiedName)
        }
        if prefix == "xmlns" {
            return XMLName(namespaceURI: XMLName.xmlnsNamespace, localName: localName, prefix: prefix)
        }
        if prefix == "xml" {
            return XMLName(namespaceURI: XMLName.xmlNamespace, localName: localName, prefix: prefix)
        }
        guard let uri = scopes.uri(for: prefix) else {
            namespaceProblem("the prefix \(prefix) is not declared")
            return XMLName(localName: localName, prefix: prefix)
        }
        return XMLName(namespaceURI: uri, localName: localName, prefix: prefix)
    }
}
