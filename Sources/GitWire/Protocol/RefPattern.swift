/// A pattern of `git ls-remote <repository> <pattern>…`: it matches a ref whose name ends with
/// it, one or more whole path components, with git's wildcards.
///
/// `main` matches `refs/heads/main` and `refs/remotes/origin/main` but not `refs/heads/domain`;
/// `v1.*` matches `refs/tags/v1.0` and `refs/tags/v1.0^{}`; `heads/*` every branch. As in git,
/// `*` and `?` also match `/`, `[a-z]`, `[!a-z]` and `[[:digit:]]` match one byte of a class,
/// and `\` takes the next byte literally.
///
/// ```swift
/// let pattern = RefPattern("v1.*")
/// print(pattern.matches("refs/tags/v1.2"))  // true
/// ```
///
/// Matching takes time proportional to the name's length times the pattern's at most, however
/// many wildcards the pattern holds.
public struct RefPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as given.
    public let description: String
    /// `*/` and the pattern: matched against `/` and the name, as git does.
    private let glob: [UInt8]

    /// The pattern `text`, as given on `git ls-remote`'s command line.
    public init(_ text: String) {
        description = text
        glob = Array("*/".utf8) + Array(text.utf8)
    }

    /// Whether `name` ends with the pattern.
    public func matches(_ name: String) -> Bool {
        Glob.matches(glob[...], [UInt8(ascii: "/")] + Array(name.utf8))
    }

    /// Whether `name` matches one of `patterns`, or there are none.
    public static func matches(_ name: String, anyOf patterns: [RefPattern]) -> Bool {
        patterns.isEmpty || patterns.contains { $0.matches(name) }
    }
}

/// git's `wildmatch` without `WM_PATHNAME` (so `*` crosses `/`), on bytes.
private enum Glob {
    /// One element of a pattern: a byte, any byte, a bracket expression, or a run of stars.
    enum Token: Equatable {
        case byte(UInt8)
        case any
        case star
        case set(negated: Bool, items: [Item])
    }

    /// One member of a bracket expression.
    enum Item: Equatable {
        case byte(UInt8)
        case range(UInt8, UInt8)
        case named(CharacterClass)
    }

    /// The POSIX classes git knows, on ASCII.
    enum CharacterClass: String {
        case alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit

        func contains(_ byte: UInt8) -> Bool {
            let isDigit = byte >= 0x30 && byte <= 0x39
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            let isGraph = byte > 0x20 && byte < 0x7F
            switch self {
            case .alnum: return isDigit || isUpper || isLower
            case .alpha: return isUpper || isLower
            case .blank: return byte == 0x20 || byte == 0x09
            case .cntrl: return byte < 0x20 || byte == 0x7F
            case .digit: return isDigit
            case .graph: return isGraph
            case .lower: return isLower
            case .print: return isGraph || byte == 0x20
            case .punct: return isGraph && !(isDigit || isUpper || isLower)
            case .space: return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
            case .upper: return isUpper
            case .xdigit: return isDigit || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
            }
        }
    }

    static func matches(_ pattern: ArraySlice<UInt8>, _ text: [UInt8]) -> Bool {
        guard let tokens = tokenize(pattern) else { return false }
        // The classic two-pointer walk: on a mismatch, the last star takes one more byte. With
        // stars that match anything, that finds a match whenever there is one, in at most
        // |tokens| × |text| steps.
        var token = 0
        var index = 0
        var lastStar: Int?
        var resumeAt = 0
        while index < text.count {
            if token < tokens.count, tokens[token] == .star {
                lastStar = token
                resumeAt = index
                token += 1
            } else if token < tokens.count, accepts(tokens[token], text[index]) {
                token += 1
                index += 1
            } else if let star = lastStar {
                token = star + 1
                resumeAt += 1
                index = resumeAt
            } else {
                return false
            }
        }
        while token < tokens.count, tokens[token] == .star { token += 1 }
        return token == tokens.count
    }

    private static func accepts(_ token: Token, _ byte: UInt8) -> Bool {
        switch token {
        case .byte(let expected): return expected == byte
        case .any: return true
        case .star: return false
        case .set(let negated, let items):
            let member = items.contains { item in
                switch item {
                case .byte(let value): value == byte
                case .range(let low, let high): low <= byte && byte <= high
                case .named(let characterClass): characterClass.contains(byte)
                }
            }
            return member != negated
        }
    }

    /// The pattern's tokens, or `nil` where git's matcher gives up on the whole pattern (an
    /// unclosed bracket, an unknown class name, a trailing backslash).
    private static func tokenize(_ pattern: ArraySlice<UInt8>) -> [Token]? {
        var tokens: [Token] = []
        var position = pattern.startIndex
        while position < pattern.endIndex {
            let byte = pattern[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard position < pattern.endIndex else { return nil }
                tokens.append(.byte(pattern[position]))
                position += 1
            case UInt8(ascii: "?"):
                tokens.append(.any)
            case UInt8(ascii: "*"):
                if tokens.last != .star { tokens.append(.star) }
            case UInt8(ascii: "["):
                guard let (set, next) = bracket(pattern, from: position) else { return nil }
                tokens.append(set)
                position = next
            default:
                tokens.append(.byte(byte))
            }
        }
        return tokens
    }

    /// The bracket expression that starts at `start` (just after `[`), and where the pattern
    /// goes on after its `]`.
    private static func bracket(_ pattern: ArraySlice<UInt8>, from start: Int) -> (Token, Int)? {
        var position = start
        var negated = false
        if position < pattern.endIndex, pattern[position] == UInt8(ascii: "!") || pattern[position] == UInt8(ascii: "^")
        {
            negated = true
            position += 1
        }
        var items: [Item] = []
        var isFirst = true
        while position < pattern.endIndex {
            var byte = pattern[position]
            position += 1
            if byte == UInt8(ascii: "]"), !isFirst { return (.set(negated: negated, items: items), position) }
            isFirst = false
            if byte == UInt8(ascii: "\\") {
                guard position < pattern.endIndex else { return nil }
                byte = pattern[position]
                position += 1
            } else if byte == UInt8(ascii: "["), position < pattern.endIndex, pattern[position] == UInt8(ascii: ":") {
                // [:name:], or a literal '[' when no ':]' closes it.
                let nameStart = position + 1
                var end = nameStart
                while end < pattern.endIndex, pattern[end] != UInt8(ascii: "]") { end += 1 }
                if end < pattern.endIndex, end > nameStart, pattern[end - 1] == UInt8(ascii: ":") {
                    let name = String(decoding: pattern[nameStart..<(end - 1)], as: UTF8.self)
                    guard let characterClass = CharacterClass(rawValue: name) else { return nil }
                    items.append(.named(characterClass))
                    position = end + 1
                    continue
                }
            }
            if position + 1 < pattern.endIndex, pattern[position] == UInt8(ascii: "-"),
                pattern[position + 1] != UInt8(ascii: "]")
            {
                var high = pattern[position + 1]
                position += 2
                if high == UInt8(ascii: "\\") {
                    guard position < pattern.endIndex else { return nil }
                    high = pattern[position]
                    position += 1
                }
                items.append(.range(byte, high))
            } else {
                items.append(.byte(byte))
            }
        }
        return nil
    }
}
