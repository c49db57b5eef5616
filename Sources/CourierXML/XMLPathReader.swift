/// Collects the elements and attributes at a few paths as a document arrives: the common "give
/// me every item's title" case, without writing an event handler.
///
/// ```swift
/// var titles = try XMLPathReader(["rss/channel/item/title", "item/enclosure/@url"])
/// try titles.read(data) { match in print(match.path, match.value) }
/// try titles.finish { match in print(match.path, match.value) }
/// ```
///
/// A path is steps separated by `/`: element names (`title`, or `atom:title` with a prefix
/// given in `namespaces`; `xml:` is always known), `*` for any element, and a last `@name` for
/// an attribute of the element before it (never a namespace declaration). A path that starts with `/` matches from the root element; any other
/// matches at any depth (as `//` would in XPath). A name without a prefix matches that local
/// name in any namespace.
///
/// An element's match is its text, descendants' text included, delivered when it ends; an
/// attribute's, when its element starts. Matches come in document order of those moments.
/// The text being collected counts toward ``XMLLimits/maximumTokenSize``, so a path that
/// matches the root of a huge document throws ``XMLError`` instead of holding it all.
public struct XMLPathReader: Sendable {
    /// One value found at a path.
    public struct Match: Sendable, Hashable {
        /// The path, as given.
        public var path: String
        /// The element's text, or the attribute's value.
        public var value: String
        /// The element's attributes (an attribute match: those of its element).
        public var attributes: [XMLAttribute]
    }

    private struct Step: Sendable, Hashable {
        var namespaceURI: String?
        var localName: String?  // nil: any element
    }

    private struct Path: Sendable {
        var text: String
        var isAbsolute: Bool
        var steps: [Step]
        var attribute: Step?
    }

    private struct Capture: Sendable {
        var path: Int
        var depth: Int
        var attributes: [XMLAttribute]
        var text: [UInt8] = []
    }

    private var reader: XMLEventReader
    private let paths: [Path]
    private var stack: [XMLName] = []
    private var captures: [Capture] = []
    private var captured = 0
    /// The limit the document went past, thrown again by every later call.
    private var failure: XMLError?

    /// A reader of `paths`, whose prefixes name the namespaces in `namespaces`.
    ///
    /// - Throws: ``XMLPathError`` for a path that is empty, has an empty step, an attribute
    ///   step before its end, or a prefix `namespaces` does not give.
    public init(
        _ paths: [String],
        namespaces: [String: String] = [:],
        limits: XMLLimits = XMLLimits()
    ) throws(XMLPathError) {
        var parsed: [Path] = []
        for text in paths {
            var rest = Substring(text)
            let isAbsolute = rest.first == "/"
            if isAbsolute { rest = rest.dropFirst() }
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            guard !rest.isEmpty, !parts.contains(where: \.isEmpty) else {
                throw XMLPathError(path: text, reason: "it has an empty step")
            }
            var path = Path(text: text, isAbsolute: isAbsolute, steps: [], attribute: nil)
            for (index, part) in parts.enumerated() {
                if part.first == "@" {
                    guard index == parts.count - 1, index > 0 else {
                        throw XMLPathError(
                            path: text,
                            reason: "an attribute step (@) must be the last, after an element"
                        )
                    }
                    path.attribute = try Self.step(part.dropFirst(), in: text, namespaces: namespaces)
                } else {
                    path.steps.append(try Self.step(part, in: text, namespaces: namespaces))
                }
            }
            parsed.append(path)
        }
        self.paths = parsed
        self.reader = XMLEventReader(limits: limits)
    }

    private static func step(
        _ part: Substring,
        in path: String,
        namespaces: [String: String]
    ) throws(XMLPathError) -> Step {
        if part == "*" { return Step(namespaceURI: nil, localName: nil) }
        guard let colon = part.firstIndex(of: ":") else { return Step(namespaceURI: nil, localName: String(part)) }
        let prefix = String(part[..<colon])
        let local = String(part[part.index(after: colon)...])
        guard !local.isEmpty else { throw XMLPathError(path: path, reason: "the step \(part) has no name") }
        guard let uri = namespaces[prefix] ?? (prefix == "xml" ? XMLName.xmlNamespace : nil) else {
            throw XMLPathError(path: path, reason: "the prefix \(prefix) is not in the namespaces given")
        }
        return Step(namespaceURI: uri, localName: local == "*" ? nil : local)
    }

    /// False once anything read was not well-formed XML.
    public var isWellFormed: Bool { reader.isWellFormed }

    /// The first thing that was not well-formed, for people.
    public var firstProblem: String? { reader.firstProblem }

    /// Reads the next bytes of the document (UTF-8), calling `found` with every match they
    /// complete.
    ///
    /// - Throws: ``XMLError`` when the document, or the text being collected, goes past a limit.
    public mutating func read(_ bytes: some Collection<UInt8>, _ found: (Match) -> Void) throws(XMLError) {
        try feeding(found) { reader, deliver throws(XMLError) in try reader.readPieces(bytes, deliver) }
    }

    /// Ends the document: elements left open end, and their matches are delivered.
    public mutating func finish(_ found: (Match) -> Void) throws(XMLError) {
        try feeding(found) { reader, deliver throws(XMLError) in try reader.finishPieces(deliver) }
    }

    /// Runs `step` on the event reader (moved out, so that its buffer is not copied), handing
    /// each piece to the matching; the first limit reached is thrown now and by every later call.
    private mutating func feeding(
        _ found: (Match) -> Void,
        _ step: (inout XMLEventReader, (XMLPiece) -> Void) throws(XMLError) -> Void
    ) throws(XMLError) {
        if let failure { throw failure }
        var reader = self.reader
        self.reader = XMLEventReader(limits: reader.limits)
        defer { self.reader = reader }
        var failed: XMLError?
        // `found` is called only while `step` runs.
        withoutActuallyEscaping(found) { found in
            do throws(XMLError) {
                try step(&reader) { piece in
                    guard failed == nil else { return }
                    do throws(XMLError) { try handle(piece, found) } catch { failed = error }
                }
            } catch {
                failed = failed ?? error
            }
        }
        if let failed {
            failure = failed
            throw failed
        }
    }

    /// Every match in a whole document, in order.
    ///
    /// - Throws: ``XMLPathError`` for a path that cannot be read, ``XMLError`` past a limit.
    public static func matches(
        _ paths: [String],
        in document: some Collection<UInt8>,
        namespaces: [String: String] = [:],
        limits: XMLLimits = XMLLimits()
    ) throws -> [Match] {
        var reader = try XMLPathReader(paths, namespaces: namespaces, limits: limits)
        var matches: [Match] = []
        try reader.read(document) { matches.append($0) }
        try reader.finish { matches.append($0) }
        return matches
    }

    // MARK: - Matching

    private mutating func handle(_ piece: XMLPiece, _ found: (Match) -> Void) throws(XMLError) {
        switch piece {
        case .start(let name, let attributes):
            stack.append(name)
            for index in paths.indices where matches(paths[index].steps, isAbsolute: paths[index].isAbsolute) {
                let path = paths[index]
                if let attribute = path.attribute {
                    // Namespace declarations are not attributes a path asks for.
                    for candidate in attributes
                    where candidate.name.namespaceURI != XMLName.xmlnsNamespace
                        && Self.matches(attribute, candidate.name)
                    {
                        found(Match(path: path.text, value: candidate.value, attributes: attributes))
                    }
                } else {
                    captures.append(Capture(path: index, depth: stack.count, attributes: attributes))
                }
            }
        case .end:
            while let last = captures.last, last.depth == stack.count {
                captures.removeLast()
                captured -= last.text.count
                found(
                    Match(
                        path: paths[last.path].text,
                        value: String(decoding: last.text, as: UTF8.self),
                        attributes: last.attributes
                    )
                )
            }
            if !stack.isEmpty { stack.removeLast() }
        case .text(let text, _):
            // Text no path wants is never made a String.
            guard !captures.isEmpty else { return }
            // Each open capture keeps a copy: all of them count.
            let (added, overflow) = text.count.multipliedReportingOverflow(by: captures.count)
            captured += overflow ? Int.max - captured : added
            if captured > reader.limits.maximumTokenSize {
                throw .limitExceeded(.tokenSize(reader.limits.maximumTokenSize))
            }
            for index in captures.indices { captures[index].text.append(contentsOf: text) }
        case .comment, .instruction:
            break
        }
    }

    /// Whether the open elements end with `steps` (or are exactly `steps`, from the root).
    private func matches(_ steps: [Step], isAbsolute: Bool) -> Bool {
        let count = steps.count
        guard stack.count >= count, !isAbsolute || stack.count == count else { return false }
        // The innermost step first: most elements fail there.
        let offset = stack.count - count
        var step = count - 1
        while step >= 0 {
            if !Self.matches(steps[step], stack[offset + step]) { return false }
            step -= 1
        }
        return true
    }

    private static func matches(_ step: Step, _ name: XMLName) -> Bool {
        if let local = step.localName, local != name.localName { return false }
        // A step without a prefix matches the local name in any namespace.
        if let uri = step.namespaceURI { return name.namespaceURI == uri }
        return true
    }
}

/// A path ``XMLPathReader`` cannot read.
public struct XMLPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path, as given.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// The error for `path`, for `reason`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `The path "…" cannot be read: …`.
    public var description: String { "The path \"\(path)\" cannot be read: \(reason)." }
}
