import Foundation

/// Checks JSON text against RFC 8259 and finds where things are in it, by line and column.
///
/// `JSONDecoder` says only that data "was not valid JSON", and names a failing value by its
/// coding path. People fixing a file need a line and a column:
///
/// ```swift
/// do {
///     try JSONSyntax.validate(Array(#"[{"title": x}]"#.utf8))
/// } catch {
///     print(error)  // "line 1, column 12: expected a value, found 'x'"
/// }
/// let position = JSONSyntax.position(of: ["1", "year"], in: Array(#"[{}, {"year": 1}]"#.utf8))
/// // line 1, column 15
/// ```
public enum JSONSyntax {
    /// How deeply arrays and objects may nest before the text is refused.
    public static let maximumDepth = 512

    /// Throws the first syntax error in `bytes`, with its position; returns if they are one
    /// valid JSON value, optionally surrounded by whitespace and preceded by a UTF-8 byte order mark.
    public static func validate(_ bytes: [UInt8]) throws(JSONSyntaxError) {
        var scanner = Scanner(bytes)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        try scanner.skipValue(depth: 0)
        scanner.skipWhitespace()
        if let byte = scanner.peek() {
            throw scanner.error(Reason.afterEnd(byte))
        }
    }

    /// Where the value at `path` starts, or `nil` if the path leads nowhere or the text is not
    /// valid JSON up to that value.
    ///
    /// - Parameters:
    ///   - path: Array indices and object keys, outermost first, as strings (`["3", "year"]`);
    ///     an index applies to an array, a key to an object.
    ///   - bytes: The JSON text.
    public static func position(of path: [String], in bytes: [UInt8]) -> JSONTextPosition? {
        var scanner = Scanner(bytes)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        do {
            for component in path {
                guard try scanner.enter(component) else { return nil }
            }
        } catch {
            return nil
        }
        return scanner.position
    }

    /// Where the value at `path` starts, for a coding path from a `DecodingError`.
    public static func position(of path: [any CodingKey], in bytes: [UInt8]) -> JSONTextPosition? {
        position(of: path.map { $0.intValue.map(String.init) ?? $0.stringValue }, in: bytes)
    }
}

/// A place in a text: the byte offset, and the line and column (both from 1, columns counted
/// in Unicode scalars) a person looks for in an editor.
public struct JSONTextPosition: Sendable, Hashable, CustomStringConvertible {
    /// The number of bytes before this position.
    public var offset: Int
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, counted in Unicode scalars.
    public var column: Int

    /// The position `offset` bytes into `bytes`.
    public init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0b1100_0000 != 0b1000_0000 {
                column += 1
            }
        }
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// A position already counted, for a reader that has not kept the text before it.
    package init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// "line 3, column 14".
    public var description: String { "line \(line), column \(column)" }
}

/// A JSON text that breaks RFC 8259: what is wrong and where.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var position: JSONTextPosition
    /// What is wrong, for people: "expected ',' or ']' after an array element, found '}'".
    public var reason: String
    /// Whether the text may be valid JSON that nests deeper than ``JSONSyntax/maximumDepth``:
    /// refused for a limit, not for its syntax.
    public var exceedsNestingLimit = false
    /// Whether the text may be valid JSON with an object larger than a `JSONFormatter` sorting
    /// its keys may hold (its `maximumObjectSize`): refused for a limit, not for its syntax.
    public var exceedsSizeLimit = false

    /// An error at `position`.
    package init(
        position: JSONTextPosition,
        reason: String,
        exceedsNestingLimit: Bool = false,
        exceedsSizeLimit: Bool = false
    ) {
        self.position = position
        self.reason = reason
        self.exceedsNestingLimit = exceedsNestingLimit
        self.exceedsSizeLimit = exceedsSizeLimit
    }

    /// "line 3, column 14: expected a value, found 'x'".
    public var description: String { "\(position): \(reason)" }
}

extension JSONSyntax {
    /// A cursor over JSON bytes that skips values and reports errors with positions.
    fileprivate struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var position: JSONTextPosition { JSONTextPosition(offset: index, in: bytes) }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
            JSONSyntaxError(position: JSONTextPosition(offset: offset ?? index, in: bytes), reason: reason)
        }

        mutating func skipByteOrderMark() {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        /// Skips one value, which must start at `index`.
        mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
            guard let byte = peek() else { throw error(Reason.endExpectingValue) }
            switch byte {
            case UInt8(ascii: "{"): try skipObject(depth: depth + 1)
            case UInt8(ascii: "["): try skipArray(depth: depth + 1)
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
            case UInt8(ascii: "t"): try skipLiteral("true")
            case UInt8(ascii: "f"): try skipLiteral("false")
            case UInt8(ascii: "n"): try skipLiteral("null")
            default: throw error(Reason.expectedValue(found: byte))
            }
        }

        mutating func skipArray(depth: Int) throws(JSONSyntaxError) {
            try skipContainer(depth: depth, isObject: false)
        }

        mutating func skipObject(depth: Int) throws(JSONSyntaxError) {
            try skipContainer(depth: depth, isObject: true)
        }

        /// Skips `[value, …]` or `{"key": value, …}`, which must start at `index`.
        mutating func skipContainer(depth: Int, isObject: Bool) throws(JSONSyntaxError) {
            let start = index
            let name = isObject ? "object" : "array"
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            try checkDepth(depth)
            index += 1
            skipWhitespace()
            if peek() == close {
                index += 1
                return
            }
            while true {
                guard peek() != nil else { throw notClosed(name, openedAt: start) }
                if isObject { _ = try readKey() }
                try skipValue(depth: depth)
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                case close:
                    index += 1
                    return
                case let byte?:
                    throw error(Reason.expectedSeparator(isObject: isObject, found: byte))
                case nil:
                    throw notClosed(name, openedAt: start)
                }
            }
        }

        func notClosed(_ name: String, openedAt start: Int) -> JSONSyntaxError {
            error(Reason.notClosed(name, openedAt: opened(at: start)))
        }

        /// Reads `"key":` and the whitespace after it; returns the key's raw bytes.
        mutating func readKey() throws(JSONSyntaxError) -> ArraySlice<UInt8> {
            guard let byte = peek() else {
                throw error("unexpected end of the text: expected a string key")
            }
            guard byte == UInt8(ascii: "\"") else {
                throw error(Reason.expectedKey(found: byte))
            }
            let keyStart = index
            try skipString()
            let key = bytes[keyStart..<index]
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error(Reason.expectedColon(found: peek()))
            }
            index += 1
            skipWhitespace()
            return key
        }

        mutating func skipString() throws(JSONSyntaxError) {
            let start = index
            index += 1
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    try skipEscape()
                case 0x00..<0x20:
                    throw error(Reason.controlCharacter(byte))
                case 0x20..<0x80:
                    index += 1
                default:
                    try skipMultiByteScalar()
                }
            }
            throw notClosed("string", openedAt: start)
        }

        mutating func skipEscape() throws(JSONSyntaxError) {
            let start = index
            index += 1
            guard let byte = peek() else { throw error(Reason.endInEscape) }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                index += 1
                for _ in 0..<4 {
                    guard let digit = peek(), digit.isHexDigit else {
                        throw error(Reason.shortUnicodeEscape, at: start)
                    }
                    index += 1
                }
            default:
                throw error(Reason.invalidEscape(byte), at: start)
            }
        }

        /// Checks one UTF-8 encoded scalar of two to four bytes (RFC 3629: no overlongs, no
        /// surrogates, nothing above U+10FFFF).
        mutating func skipMultiByteScalar() throws(JSONSyntaxError) {
            let lead = bytes[index]
            guard let sequence = UTF8Sequence(lead: lead), index + sequence.length <= bytes.count,
                sequence.second.contains(bytes[index + 1]),
                bytes[(index + 2)..<(index + sequence.length)].allSatisfy({ $0 & 0xC0 == 0x80 })
            else { throw error(Reason.invalidUTF8(lead: lead)) }
            index += sequence.length
        }

        mutating func skipNumber() throws(JSONSyntaxError) {
            let start = index
            if peek() == UInt8(ascii: "-") { index += 1 }
            guard let first = peek(), first.isDigit else { throw invalidNumber(from: start) }
            index += 1
            if first == UInt8(ascii: "0"), let next = peek(), next.isDigit {
                throw error(Reason.leadingZero, at: start)
            }
            skipDigits()
            if peek() == UInt8(ascii: ".") {
                index += 1
                guard peek()?.isDigit == true else { throw invalidNumber(from: start) }
                skipDigits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                index += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
                guard peek()?.isDigit == true else { throw invalidNumber(from: start) }
                skipDigits()
            }
        }

        mutating func skipDigits() {
            while peek()?.isDigit == true { index += 1 }
        }

        func invalidNumber(from start: Int) -> JSONSyntaxError {
            // At most 24 bytes of it: a number may be a million digits long.
            var end = index
            while end < bytes.count, end - start < 24, !JSONSyntax.endsToken(bytes[end]) { end += 1 }
            let text = String(decoding: bytes[start..<min(end, start + 24)], as: UTF8.self)
            return error(Reason.invalidNumber(text), at: start)
        }

        mutating func skipLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            guard bytes[index...].starts(with: expected) else {
                var end = index
                while end < bytes.count, end - index < 24, !JSONSyntax.endsToken(bytes[end]) { end += 1 }
                let found = String(decoding: bytes[index..<end], as: UTF8.self)
                throw error(Reason.expectedValue(found: found))
            }
            index += expected.count
        }

        func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
            if depth > JSONSyntax.maximumDepth {
                var limit = error(Reason.tooDeep)
                limit.exceedsNestingLimit = true
                throw limit
            }
        }

        func opened(at offset: Int) -> JSONTextPosition { JSONTextPosition(offset: offset, in: bytes) }

        // MARK: - Finding a value by path

        /// Moves into the array element or object member named by `component`; `false` if the
        /// current value has none.
        mutating func enter(_ component: String) throws(JSONSyntaxError) -> Bool {
            switch peek() {
            case UInt8(ascii: "["):
                guard let wanted = Int(component), wanted >= 0 else { return false }
                index += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { return false }
                for _ in 0..<wanted {
                    try skipValue(depth: 1)
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ",") else { return false }
                    index += 1
                    skipWhitespace()
                }
                return true
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { return false }
                while true {
                    let key = try readKey()
                    if Self.decodeKey(key) == component { return true }
                    try skipValue(depth: 1)
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ",") else { return false }
                    index += 1
                    skipWhitespace()
                }
            default:
                return false
            }
        }

        /// A key's text, escapes resolved; `quoted` includes the quotes.
        static func decodeKey(_ quoted: ArraySlice<UInt8>) -> String? {
            let inner = quoted.dropFirst().dropLast()
            guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
            return try? JSONDecoder().decode(String.self, from: Data(quoted))
        }
    }
}

// MARK: - Describing bytes and errors

extension JSONSyntax {
    /// The reasons a text is refused, shared by ``JSONSyntax/validate(_:)`` and `JSONFormatter` (CourierJSON).
    package enum Reason {
        package static let endExpectingValue = "unexpected end of the text: expected a value"
        package static let endInEscape = "unexpected end of the text inside an escape"
        package static let shortUnicodeEscape = "invalid escape: \\u needs four hexadecimal digits"
        package static let leadingZero = "invalid number: no leading zeros allowed"
        package static let tooDeep = "arrays and objects nest deeper than \(JSONSyntax.maximumDepth) levels"

        package static func afterEnd(_ byte: UInt8) -> String {
            "unexpected \(describe(byte)) after the end of the JSON value"
        }
        package static func expectedValue(found byte: UInt8) -> String { "expected a value, found \(describe(byte))" }
        package static func expectedValue(found text: String) -> String { "expected a value, found '\(text)'" }
        package static func expectedKey(found byte: UInt8) -> String {
            "expected a string key in double quotes, found \(describe(byte))"
        }
        package static func expectedColon(found byte: UInt8?) -> String {
            "expected ':' after the object key, found \(byte.map(describe) ?? "the end of the text")"
        }
        package static func expectedSeparator(isObject: Bool, found byte: UInt8) -> String {
            isObject
                ? "expected ',' or '}' after an object member, found \(describe(byte))"
                : "expected ',' or ']' after an array element, found \(describe(byte))"
        }
        package static func notClosed(_ name: String, openedAt position: JSONTextPosition) -> String {
            "unexpected end of the text: the \(name) opened at \(position) is not closed"
        }
        package static func controlCharacter(_ byte: UInt8) -> String {
            "control character U+00\(hex(byte)) inside a string: escape it"
        }
        package static func invalidEscape(_ byte: UInt8) -> String {
            "invalid escape '\\\(printable(byte))': use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"
        }
        package static func invalidUTF8(lead: UInt8) -> String { "invalid UTF-8 (byte 0x\(hex(lead)))" }
        package static func invalidNumber(_ text: String) -> String { "invalid number '\(text)'" }
    }

    /// Whether `byte` ends a number or a literal: whitespace, a comma or a closing bracket.
    package static func endsToken(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == UInt8(ascii: ",")
            || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }

    /// `'x'` for a printable byte, `byte 0x1F` for others.
    package static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
    }

    /// The byte itself when printable, `x1F` for others.
    package static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "x\(hex(byte))"
    }

    /// Two uppercase hexadecimal digits.
    package static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
