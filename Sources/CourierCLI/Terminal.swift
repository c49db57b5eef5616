import Foundation

/// Writing to standard output and standard error.
///
/// Text goes through ``TerminalText/escaped(_:as:)`` on its way out, so what came from the
/// network or a file (and is quoted in a message) cannot send the terminal commands. Only output
/// the person asked for as it is — JSON, a picked value, a response body — is written verbatim.
enum Terminal {
    /// Prints `text` and a newline on standard output, control characters escaped.
    static func output(_ text: String) {
        output(verbatim: TerminalText.escaped(text))
    }

    /// Prints JSON text and a newline on standard output, the characters JSON leaves raw but a
    /// terminal acts on (C1 and bidi controls) written as `\uXXXX` escapes.
    static func output(json text: String) {
        output(verbatim: TerminalText.jsonEscaped(text))
    }

    /// Prints `value` as pretty JSON with sorted keys (``output(json:)``).
    static func output(json value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        output(json: String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Prints `text` and a newline on standard output as it is: for values the person asked
    /// for raw.
    static func output(verbatim text: String) {
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: .standardOutput)
    }

    /// Prints `text` and a newline on standard error, control characters escaped.
    static func error(_ text: String) {
        let text = TerminalText.escaped(text)
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: .standardError)
    }

    /// Writes a piece of JSON text on standard output, the characters JSON leaves raw but a
    /// terminal acts on (C1 and bidi controls) written as `\uXXXX` escapes.
    static func write(json piece: ArraySlice<UInt8>) {
        // Pieces end between characters (JSONFormatter's promise), so no UTF-8 sequence is split.
        if piece.allSatisfy({ $0 < 0x7F }) {
            write(Data(piece))
        } else {
            write(Data(TerminalText.jsonEscaped(String(decoding: piece, as: UTF8.self)).utf8))
        }
    }

    /// Writes `data` as it is.
    static func write(_ data: Data, to handle: FileHandle = .standardOutput) {
        if let context = CommandContext.current {
            context.write(data, toErrors: handle === FileHandle.standardError)
            return
        }
        // A closed pipe (`courier get … | head`) is not worth a crash.
        try? handle.write(contentsOf: data)
    }
}
