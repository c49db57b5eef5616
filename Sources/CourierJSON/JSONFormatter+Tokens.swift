import Courier
import Foundation

/// Strings, numbers and literals, which may be cut across chunks: each is a small state
/// machine that picks up where the last chunk left it.
extension JSONFormatter {
    struct StringToken {
        enum State {
            case plain, escape
            /// After `\u`: how many hexadecimal digits are still to come.
            case unicode(Int)
            /// Inside a UTF-8 sequence cut by the chunk's end: its bytes so far are `scalar`.
            case utf8
        }

        var state = State.plain
        var isKey = false
        var opened = JSONTextPosition(offset: 0, line: 1, column: 1)
        var escapeStart = 0
        /// A UTF-8 sequence cut across chunks: its bytes, length, the range of its second byte
        /// and where it starts.
        var scalar: [UInt8] = []
        var scalarLength = 0
        var second: ClosedRange<UInt8> = 0x80...0xBF
        var scalarStart = 0
        /// The key as written, while it is compared with the path; at most `keyLimit` bytes
        /// (six bytes of text, `\uXXXX`, make at most one byte of the key).
        var collecting = false
        var key: [UInt8] = []
        var keyLimit = 0
    }

    struct NumberToken {
        enum State {
            case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent

            var isComplete: Bool { self == .zero || self == .integer || self == .fraction || self == .exponent }
        }

        var state = State.integer
        var start = 0
        /// The first bytes, for an error message.
        var text: [UInt8] = []
    }

    struct LiteralToken {
        /// The literal that starts with `t`, `f` or `n`.
        static func spelling(_ first: UInt8) -> [UInt8] {
            switch first {
            case UInt8(ascii: "t"): Array("true".utf8)
            case UInt8(ascii: "f"): Array("false".utf8)
            default: Array("null".utf8)
            }
        }

        var spelling: [UInt8] = []
        var matched = 0
        var start = 0
    }

    /// A number or literal found wrong: its text is read up to where it would end (at most
    /// 24 bytes), for the message.
    struct BadToken {
        var isNumber = false
        var start = 0
        var text: [UInt8] = []
    }

    // MARK: - Strings

    mutating func beginString(at index: Int, isKey: Bool) {
        token = .string
        string.state = .plain
        string.isKey = isKey
        string.opened = position(at: base + index)
        string.collecting = false
        if isKey, let path, containers.count - 1 == matched, matched < path.count, targetDepth == nil {
            string.collecting = true
            string.key.removeAll(keepingCapacity: true)
            string.keyLimit = path[matched].utf8.count * 6
        }
        if emitting { output.append(UInt8(ascii: "\"")) }
    }

    /// Reads a string's bytes from `start`; returns where it stopped.
    mutating func scanString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONSyntaxError) -> Int {
        var index = start
        while index < bytes.count {
            switch string.state {
            case .plain:
                let run = index
                index = try plainRun(bytes, from: index)
                keep(bytes[run..<index])
                if case .utf8 = string.state { return bytes.count }  // the cut sequence is kept aside
                guard index < bytes.count else { return index }
                if bytes[index] == UInt8(ascii: "\"") {
                    if emitting { output.append(UInt8(ascii: "\"")) }
                    token = .none
                    stringEnded()
                    return index + 1
                }
                string.escapeStart = base + index
                string.state = .escape
                index += 1
            case .escape:
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "/"):
                    if emitting { output.append(byte) }
                    string.state = .plain
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                    UInt8(ascii: "r"), UInt8(ascii: "t"):
                    if emitting { output.append(contentsOf: [UInt8(ascii: "\\"), byte]) }
                    string.state = .plain
                case UInt8(ascii: "u"):
                    if emitting { output.append(contentsOf: [UInt8(ascii: "\\"), byte]) }
                    string.state = .unicode(4)
                default:
                    throw error(JSONSyntax.Reason.invalidEscape(byte), at: string.escapeStart)
                }
                collectKey([UInt8(ascii: "\\"), byte])
                index += 1
            case .unicode(let remaining):
                let byte = bytes[index]
                guard byte.isHexDigit else {
                    throw error(JSONSyntax.Reason.shortUnicodeEscape, at: string.escapeStart)
                }
                if emitting { output.append(byte) }
                collectKey(CollectionOfOne(byte))
                string.state = remaining > 1 ? .unicode(remaining - 1) : .plain
                index += 1
            case .utf8:
                let byte = bytes[index]
                let range = string.scalar.count == 1 ? string.second : 0x80...0xBF
                guard range.contains(byte) else {
                    throw error(JSONSyntax.Reason.invalidUTF8(lead: string.scalar.first ?? 0), at: string.scalarStart)
                }
                string.scalar.append(byte)
                index += 1
                if string.scalar.count == string.scalarLength {
                    keep(string.scalar[...])
                    continuations += string.scalarLength - 1
                    string.state = .plain
                }
            }
        }
        return index
    }

    /// Skips plain bytes, checking their UTF-8, up to a quote, a backslash or the chunk's end;
    /// keeps a UTF-8 sequence cut by the end aside, so the output never ends inside one.
    private mutating func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONSyntaxError) -> Int
    {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x80 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
                index += 1
                continue
            }
            guard byte >= 0x80 else { throw error(JSONSyntax.Reason.controlCharacter(byte), at: base + index) }
            guard let sequence = UTF8Sequence(lead: byte) else {
                throw error(JSONSyntax.Reason.invalidUTF8(lead: byte), at: base + index)
            }
            let (length, second) = (sequence.length, sequence.second)
            let available = min(length, bytes.count - index)
            for offset in 1..<max(available, 1) {
                let next = bytes[index + offset]
                guard offset == 1 ? second.contains(next) : next & 0xC0 == 0x80 else {
                    throw error(JSONSyntax.Reason.invalidUTF8(lead: byte), at: base + index)
                }
            }
            if available < length {
                string.scalar = Array(bytes[index..<bytes.count])
                string.scalarLength = length
                string.second = second
                string.scalarStart = base + index
                string.state = .utf8
                return index
            }
            continuations += length - 1
            index += length
        }
        return index
    }

    /// Writes plain string bytes, and keeps them while a key is compared.
    private mutating func keep(_ bytes: some Collection<UInt8>) {
        if emitting { output.append(contentsOf: bytes) }
        collectKey(bytes)
    }

    private mutating func collectKey(_ bytes: some Collection<UInt8>) {
        guard string.collecting else { return }
        if string.key.count + bytes.count > string.keyLimit {
            string.collecting = false  // too long to be the key on the path
            string.key = []
        } else {
            string.key.append(contentsOf: bytes)
        }
    }

    private mutating func stringEnded() {
        guard string.isKey else { return valueEnded() }
        expect = .colon
        guard string.collecting, let path else { return }
        let key = string.key[...]
        let text = key.contains(UInt8(ascii: "\\")) ? Escapes.decode(key) : String(decoding: key, as: UTF8.self)
        if text == path[matched] { matched += 1 }
    }

    // MARK: - Numbers

    mutating func beginNumber(_ byte: UInt8, at index: Int) {
        token = .number
        number.start = base + index
        number.state = byte == UInt8(ascii: "-") ? .minus : byte == UInt8(ascii: "0") ? .zero : .integer
        number.text.removeAll(keepingCapacity: true)
        number.text.append(byte)
        if emitting { output.append(byte) }
    }

    /// Reads a number's bytes from `start`, as RFC 8259's grammar allows them.
    mutating func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONSyntaxError) -> Int {
        var index = start
        var state = number.state
        var ended = false
        scan: while index < bytes.count {
            let byte = bytes[index]
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let isMark = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            switch state {
            case .minus where isDigit: state = byte == UInt8(ascii: "0") ? .zero : .integer
            case .zero where isDigit: throw error(JSONSyntax.Reason.leadingZero, at: number.start)
            case .integer where isDigit, .fraction where isDigit, .exponent where isDigit: break
            case .dot where isDigit: state = .fraction
            case .exponentMark where isDigit, .exponentSign where isDigit: state = .exponent
            case .zero where byte == UInt8(ascii: "."), .integer where byte == UInt8(ascii: "."): state = .dot
            case .zero where isMark, .integer where isMark, .fraction where isMark: state = .exponentMark
            case .exponentMark where byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"): state = .exponentSign
            case .zero, .integer, .fraction, .exponent:
                ended = true
                break scan
            case .minus, .dot, .exponentMark, .exponentSign:
                number.text.append(contentsOf: bytes[start..<index].prefix(max(0, 24 - number.text.count)))
                token = .bad
                bad = BadToken(isNumber: true, start: number.start, text: number.text)
                return index
            }
            index += 1
        }
        number.state = state
        if emitting { output.append(contentsOf: bytes[start..<index]) }
        number.text.append(contentsOf: bytes[start..<index].prefix(max(0, 24 - number.text.count)))
        if ended {
            token = .none
            valueEnded()
        }
        return index
    }

    // MARK: - Literals

    mutating func beginLiteral(_ byte: UInt8, at index: Int) {
        token = .literal
        literal.spelling = LiteralToken.spelling(byte)
        literal.matched = 1
        literal.start = base + index
    }

    /// Reads `true`, `false` or `null` on from `start`.
    mutating func scanLiteral(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONSyntaxError) -> Int {
        var index = start
        while index < bytes.count, literal.matched < literal.spelling.count {
            guard bytes[index] == literal.spelling[literal.matched] else {
                token = .bad
                bad = BadToken(isNumber: false, start: literal.start, text: Array(literal.spelling[..<literal.matched]))
                return index
            }
            literal.matched += 1
            index += 1
        }
        if literal.matched == literal.spelling.count {
            if emitting { output.append(contentsOf: literal.spelling) }
            token = .none
            valueEnded()
        }
        return index
    }

    // MARK: - Errors in tokens

    /// Reads the rest of a wrong token, up to where it would end, then throws.
    mutating func scanBad(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONSyntaxError) -> Int {
        var index = start
        while index < bytes.count {
            if bad.text.count >= 24 || JSONSyntax.endsToken(bytes[index]) { throw badTokenError() }
            bad.text.append(bytes[index])
            index += 1
        }
        return index
    }

    private func badTokenError() -> JSONSyntaxError {
        let text = String(decoding: bad.text, as: UTF8.self)
        let reason = bad.isNumber ? JSONSyntax.Reason.invalidNumber(text) : JSONSyntax.Reason.expectedValue(found: text)
        return error(reason, at: bad.start)
    }

    /// The text ended: a complete number ends with it; any other token is cut short.
    mutating func endToken() throws(JSONSyntaxError) {
        let end = base
        switch token {
        case .none:
            return
        case .string:
            switch string.state {
            case .plain: throw error(JSONSyntax.Reason.notClosed("string", openedAt: string.opened), at: end)
            case .escape: throw error(JSONSyntax.Reason.endInEscape, at: end)
            case .unicode: throw error(JSONSyntax.Reason.shortUnicodeEscape, at: string.escapeStart)
            case .utf8:
                throw error(JSONSyntax.Reason.invalidUTF8(lead: string.scalar.first ?? 0), at: string.scalarStart)
            }
        case .number:
            guard number.state.isComplete else {
                bad = BadToken(isNumber: true, start: number.start, text: number.text)
                throw badTokenError()
            }
            // A number ends at the byte after it: inside an array or object, the text is cut.
            if let container = containers.last {
                let name = container.isObject ? "object" : "array"
                throw error(JSONSyntax.Reason.notClosed(name, openedAt: container.opened), at: end)
            }
            token = .none
            valueEnded()
        case .literal:
            bad = BadToken(isNumber: false, start: literal.start, text: Array(literal.spelling[..<literal.matched]))
            throw badTokenError()
        case .bad:
            throw badTokenError()
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
            || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
