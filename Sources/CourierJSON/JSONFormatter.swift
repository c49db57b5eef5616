public import Courier
public import Foundation

/// Pretty-prints (or compacts) JSON text as it arrives, without building values: numbers and
/// strings are copied as written (a 100,000-digit number stays exact; only `\/` becomes `/`),
/// and the output goes out in pieces as it is made.
///
/// Feed it the text in pieces of any size; it checks the text as it goes (a syntax error, or
/// nesting deeper than `JSONSyntax.maximumDepth`, throws with its line and column) and
/// writes what it has formatted:
///
/// ```swift
/// var formatter = JSONFormatter()
/// for try await chunk in response.body {
///     try formatter.format(chunk) { piece in output.write(contentsOf: piece) }
/// }
/// try formatter.finish { piece in output.write(contentsOf: piece) }
/// ```
///
/// Time is linear in the text. Memory is constant in document order: the formatter keeps the
/// kind and position of each open array and object and the token in progress. Sorting keys
/// (`sortingKeys`) holds each outermost object until it closes, and picking a value reads only
/// up to its end.
public struct JSONFormatter: Sendable {
    let compact: Bool
    let sortingKeys: Bool
    /// The keys and indices of the value to write (nil: the whole text), and the indices as
    /// numbers.
    let path: [String]?
    let pathIndices: [Int?]
    let maximumObjectSize: Int

    /// Whether the value at the path has been written, or the path leads nowhere: nothing that
    /// follows can change the output, so the rest of the text need not be read.
    public private(set) var isFinished = false
    /// Whether the value at the path was found (and written). Without a path, whether the whole
    /// text was.
    public private(set) var foundValue = false
    /// The bytes held now for an object being sorted.
    public var bufferedCount: Int { capture.count }

    // Where the text is.
    var expect = Expect.topValue
    var containers: [Container] = []
    var token = Token.none
    /// Bytes before the chunk being read, and where the current line starts.
    var base = 0
    var line = 1
    var lineStart = 0
    /// UTF-8 continuation bytes on this line, which a column does not count.
    var continuations = 0
    /// The first bytes, until they show whether the text starts with a byte order mark.
    var head: [UInt8] = []
    var readHead = false

    // What is written.
    var output: [UInt8] = []
    /// Whether bytes read now are written: not outside the picked value, nor inside an object
    /// held for sorting.
    var emitting: Bool
    /// The depth of the value written, whose indentation is 0.
    var baseDepth = 0
    /// How many path components the open containers match, outermost first, and the index
    /// of the current element in the container at that depth.
    var matched = 0
    var elementIndex = 0
    /// The depth of the picked value while it is written.
    var targetDepth: Int?
    /// An object held for sorting: its bytes so far, its depth, and where it starts in the chunk.
    var capture: [UInt8] = []
    var captureDepth: Int?
    /// Whether the object held went past `maximumObjectSize`: it is let go of and only checked,
    /// and refused at its end (so the error does not depend on where the text was cut).
    var captureTooLarge = false
    var captureFrom = 0

    // The token in progress.
    var string = StringToken()
    var number = NumberToken()
    var literal = LiteralToken()
    var bad = BadToken()

    /// Makes a formatter.
    ///
    /// - Parameters:
    ///   - compact: No whitespace at all, instead of two-space indentation and `"key" : value`.
    ///   - sortingKeys: Object keys in Unicode code point order (as `jq -S` sorts them; equal
    ///     keys keep their order), instead of the order of the text. Each outermost object is
    ///     held until it closes.
    ///   - path: Object keys and array indices (from 0), outermost first: only the value there
    ///     is written (see ``components(ofPath:)``), and reading can stop at its end
    ///     (``isFinished``). `nil` writes the whole text.
    ///   - maximumObjectSize: The largest object, in bytes of text, held for sorting; a larger
    ///     one throws a `JSONSyntaxError` whose `exceedsSizeLimit` is true.
    public init(
        compact: Bool = false,
        sortingKeys: Bool = false,
        picking path: [String]? = nil,
        maximumObjectSize: Int = .max
    ) {
        self.maximumObjectSize = maximumObjectSize
        self.compact = compact
        self.sortingKeys = sortingKeys
        self.path = path
        self.pathIndices = (path ?? []).map { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        self.emitting = path == nil
        output.reserveCapacity(1 << 16)
    }

    /// Reads the next piece of the text and writes what it formats.
    ///
    /// - Parameters:
    ///   - bytes: The next piece of the JSON text, split anywhere.
    ///   - write: Receives the output in pieces, each ending between two Unicode scalars (never
    ///     inside a UTF-8 sequence).
    /// - Returns: `false` once ``isFinished``: the rest of the text need not be read.
    /// - Throws: The text's first syntax error; the formatter must not be used after one.
    @discardableResult
    public mutating func format(
        _ bytes: some ContiguousBytes,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) -> Bool {
        let result = bytes.withUnsafeBytes { raw in
            Result<Void, JSONSyntaxError> { () throws(JSONSyntaxError) in
                try read(raw.bindMemory(to: UInt8.self), to: write)
            }
        }
        try result.get()
        return !isFinished
    }

    /// Ends the text: throws if it is cut short, and writes what is left.
    public mutating func finish(to write: (ArraySlice<UInt8>) -> Void) throws(JSONSyntaxError) {
        if !readHead {
            readHead = true
            let head = self.head
            try head.withUnsafeBufferPointer { bytes throws(JSONSyntaxError) in try consume(bytes, to: write) }
        }
        guard !isFinished else { return }
        try endToken()
        if !isFinished {
            let end = base
            switch expect {
            case .end:
                foundValue = path == nil
            case .topValue, .memberValue:
                throw error(JSONSyntax.Reason.endExpectingValue, at: end)
            case .colon:
                throw error(JSONSyntax.Reason.expectedColon(found: nil), at: end)
            case .firstElement, .element, .firstKey, .key, .separator:
                let container = containers.last ?? Container(isObject: false, opened: position(at: end))
                let name = container.isObject ? "object" : "array"
                throw error(JSONSyntax.Reason.notClosed(name, openedAt: container.opened), at: end)
            }
        }
        flush(to: write)
    }

    /// Formats a whole text at once.
    ///
    /// ```swift
    /// try JSONFormatter.format(Array(body), sortingKeys: true) { piece in output.write(contentsOf: piece) }
    /// ```
    public static func format(
        _ bytes: [UInt8],
        compact: Bool = false,
        sortingKeys: Bool = false,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) {
        var formatter = JSONFormatter(compact: compact, sortingKeys: sortingKeys)
        try formatter.format(bytes, to: write)
        try formatter.finish(to: write)
    }

    /// The bytes of the value at `path` in a whole JSON text, or `nil` when the path leads
    /// nowhere.
    ///
    /// - Parameters:
    ///   - path: Object keys and array indices (from 0), outermost first.
    ///   - bytes: The whole JSON text.
    /// - Throws: The text's syntax error, when it is not valid JSON.
    public static func value(at path: [String], in bytes: [UInt8]) throws(JSONSyntaxError) -> ArraySlice<UInt8>? {
        try JSONSyntax.validate(bytes)
        guard let start = JSONSyntax.position(of: path, in: bytes)?.offset else { return nil }
        var scanner = Extents(bytes: bytes)
        return bytes[start..<scanner.end(ofValueAt: start)]
    }

    /// The keys and indices of a path such as `results.0.title` or `items[2].name`, for
    /// ``init(compact:sortingKeys:picking:maximumObjectSize:)`` and ``value(at:in:)``; `nil` when the path is
    /// malformed or counts from the end (`a[-1]`).
    public static func components(ofPath path: String) -> [String]? {
        guard let parsed = JSONPath(path) else { return nil }
        var components: [String] = []
        for step in parsed.steps {
            switch step {
            case .member(let key):
                // `items.-1` counts from the end of an array, as `items[-1]` does.
                if let index = Int(key), index < 0 { return nil }
                components.append(key)
            case .index(let index) where index >= 0: components.append(String(index))
            case .index: return nil
            }
        }
        return components
    }

    /// The components of `path` with the indices that count from the end of an array
    /// (`items[-1]`, `items.-2`) counted in `value`, the text parsed; `nil` when the path is
    /// malformed or such an index is before the array's start.
    public static func components(ofPath path: String, in value: JSONValue) -> [String]? {
        guard let parsed = JSONPath(path) else { return nil }
        var current: JSONValue? = value
        var components: [String] = []
        for step in parsed.steps {
            var index: Int
            switch step {
            case .member(let name):
                guard case .array = current, let number = Int(name) else {
                    components.append(name)
                    current = current?[name]
                    continue
                }
                index = number
            case .index(let number):
                index = number
            }
            if index < 0, case .array(let items)? = current { index += items.count }
            guard index >= 0 else { return nil }
            components.append(String(index))
            current = current?[index]
        }
        return components
    }

    /// The text of a JSON string value, escapes resolved; `nil` when `value` is not a string.
    public static func string(_ value: ArraySlice<UInt8>) -> String? {
        guard value.first == UInt8(ascii: "\""), value.count >= 2 else { return nil }
        let inner = value.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        return Escapes.decode(inner)
    }
}

// MARK: - Reading

extension JSONFormatter {
    enum Expect {
        case topValue, memberValue, element, firstElement, firstKey, key, colon, separator, end
    }

    struct Container {
        var isObject: Bool
        var opened: JSONTextPosition
    }

    enum Token {
        case none, string, number, literal, bad
    }

    /// The first three bytes decide whether there is a byte order mark; then chunks are read.
    private mutating func read(
        _ bytes: UnsafeBufferPointer<UInt8>,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) {
        var rest = bytes
        if !readHead {
            let taken = min(3 - head.count, bytes.count)
            head.append(contentsOf: bytes[..<taken])
            rest = UnsafeBufferPointer(rebasing: bytes[taken...])
            guard head.count == 3 else { return }
            readHead = true
            if head == [0xEF, 0xBB, 0xBF] {
                base = 3
                continuations = 2
            } else {
                let head = self.head
                try head.withUnsafeBufferPointer { bytes throws(JSONSyntaxError) in try consume(bytes, to: write) }
            }
        }
        try consume(rest, to: write)
    }

    /// Reads one chunk; then writes what it formatted and keeps what an object held for sorting
    /// needs of it.
    mutating func consume(
        _ bytes: UnsafeBufferPointer<UInt8>,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) {
        captureFrom = 0
        var index = 0
        while index < bytes.count, !isFinished {
            switch token {
            case .none: index = try structure(bytes, at: index, to: write)
            case .string: index = try scanString(bytes, from: index)
            case .number: index = try scanNumber(bytes, from: index)
            case .literal: index = try scanLiteral(bytes, from: index)
            case .bad: index = try scanBad(bytes, from: index)
            }
        }
        if captureDepth != nil, !captureTooLarge {
            capture.append(contentsOf: bytes[captureFrom..<bytes.count])
            if capture.count > maximumObjectSize {
                captureTooLarge = true
                capture = []
            }
        }
        base += bytes.count
        flush(to: write)
    }

    /// Whitespace, or the punctuation or first byte of a token at `index`.
    private mutating func structure(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at start: Int,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = base + index
                continuations = 0
            default:
                return try punctuation(bytes, at: index, to: write)
            }
        }
        return index
    }

    private mutating func punctuation(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at index: Int,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) -> Int {
        let byte = bytes[index]
        let offset = base + index
        switch expect {
        case .topValue, .memberValue, .element:
            return try beginValue(byte, at: index)
        case .firstElement:
            if byte == UInt8(ascii: "]") { return try close(bytes, at: index, to: write) }
            newline()
            childBegins()
            return try beginValue(byte, at: index)
        case .firstKey, .key:
            if byte == UInt8(ascii: "}"), expect == .firstKey { return try close(bytes, at: index, to: write) }
            guard byte == UInt8(ascii: "\"") else {
                throw error(JSONSyntax.Reason.expectedKey(found: byte), at: offset)
            }
            if expect == .firstKey { newline() }
            beginString(at: index, isKey: true)
            return index + 1
        case .colon:
            guard byte == UInt8(ascii: ":") else {
                throw error(JSONSyntax.Reason.expectedColon(found: byte), at: offset)
            }
            if emitting { output.append(contentsOf: compact ? [UInt8(ascii: ":")] : [0x20, UInt8(ascii: ":"), 0x20]) }
            expect = .memberValue
            return index + 1
        case .separator:
            let isObject = containers.last?.isObject ?? false
            if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                return try close(bytes, at: index, to: write)
            }
            guard byte == UInt8(ascii: ",") else {
                throw error(JSONSyntax.Reason.expectedSeparator(isObject: isObject, found: byte), at: offset)
            }
            if emitting { output.append(UInt8(ascii: ",")) }
            newline()
            if isObject {
                expect = .key
            } else {
                expect = .element
                if containers.count - 1 == matched { elementIndex += 1 }
                childBegins()
            }
            if output.count >= 1 << 16 { flush(to: write) }
            return index + 1
        case .end:
            throw error(JSONSyntax.Reason.afterEnd(byte), at: offset)
        }
    }

    /// The first byte of a value: a container opens, or a token starts.
    private mutating func beginValue(_ byte: UInt8, at index: Int) throws(JSONSyntaxError) -> Int {
        if let path, targetDepth == nil, matched == path.count, containers.count == matched {
            targetDepth = containers.count
            baseDepth = containers.count
            emitting = true
        }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try open(isObject: byte == UInt8(ascii: "{"), at: index)
        case UInt8(ascii: "\""):
            beginString(at: index, isKey: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            beginNumber(byte, at: index)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            beginLiteral(byte, at: index)
        default:
            throw error(JSONSyntax.Reason.expectedValue(found: byte), at: base + index)
        }
        return index + 1
    }

    private mutating func open(isObject: Bool, at index: Int) throws(JSONSyntaxError) -> Int {
        let offset = base + index
        guard containers.count < JSONSyntax.maximumDepth else {
            var limit = error(JSONSyntax.Reason.tooDeep, at: offset)
            limit.exceedsNestingLimit = true
            throw limit
        }
        if sortingKeys, isObject, emitting {
            // Held until it closes, then written sorted by `SortedWriter`.
            captureDepth = containers.count
            captureFrom = index
            emitting = false
        }
        containers.append(Container(isObject: isObject, opened: position(at: offset)))
        if containers.count - 1 == matched { elementIndex = 0 }
        if emitting { output.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "[")) }
        expect = isObject ? .firstKey : .firstElement
        return index + 1
    }

    private mutating func close(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at index: Int,
        to write: (ArraySlice<UInt8>) -> Void
    ) throws(JSONSyntaxError) -> Int {
        let isEmpty = expect == .firstKey || expect == .firstElement
        let container = containers.removeLast()
        if emitting {
            if !isEmpty { newline() }
            output.append(container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        if captureDepth == containers.count {
            if !captureTooLarge { capture.append(contentsOf: bytes[captureFrom...index]) }
            if captureTooLarge || capture.count > maximumObjectSize {
                var limit = JSONSyntaxError(
                    position: container.opened,
                    reason: "an object larger than \(maximumObjectSize) bytes, held whole to sort its keys"
                )
                limit.exceedsSizeLimit = true
                throw limit
            }
            writeSorted(to: write)
        }
        valueEnded()
        return index + 1
    }

    /// Writes the object held for sorting, and lets go of it.
    private mutating func writeSorted(to write: (ArraySlice<UInt8>) -> Void) {
        flush(to: write)
        let indent = (containers.count - baseDepth) * 2
        let bytes = capture
        let compact = self.compact
        withoutActuallyEscaping(write) { write in
            var writer = SortedWriter(bytes: bytes, compact: compact, write: write)
            writer.value(at: 0, indent: indent)
            writer.flush()
        }
        capture = []
        captureDepth = nil
        emitting = true
    }

    /// A member's key or an element begins in the innermost container: it may be on the path.
    mutating func childBegins() {
        let level = containers.count - 1
        guard level == matched, level < pathIndices.count, targetDepth == nil else { return }
        if !(containers.last?.isObject ?? true), pathIndices[level] == elementIndex { matched += 1 }
    }

    /// A value has ended: the next is a separator, or the end of the text, or the picked
    /// value is complete.
    mutating func valueEnded() {
        if let targetDepth, containers.count == targetDepth {
            output.append(0x0A)
            isFinished = true
            foundValue = true
            return
        }
        if path != nil, targetDepth == nil, containers.count == matched {
            // The value the path went into ended without the rest of the path.
            isFinished = true
            return
        }
        expect = containers.isEmpty ? .end : .separator
        if containers.isEmpty, emitting { output.append(0x0A) }
    }

    private mutating func newline() {
        guard emitting, !compact else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: (containers.count - baseDepth) * 2))
    }

    mutating func flush(to write: (ArraySlice<UInt8>) -> Void) {
        guard !output.isEmpty else { return }
        write(output[...])
        output.removeAll(keepingCapacity: true)
    }

    func position(at offset: Int) -> JSONTextPosition {
        JSONTextPosition(offset: offset, line: line, column: offset - lineStart - continuations + 1)
    }

    func error(_ reason: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(position: position(at: offset), reason: reason)
    }
}
