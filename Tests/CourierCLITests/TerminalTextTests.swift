import CourierTestTraits
import Foundation
import GitWire
import Testing

@testable import CourierCLI

/// The one escaping function every terminal output path uses, and the outputs built on it.
@Suite("TerminalText", .loadLimited)
struct TerminalTextTests {
    @Test func everyC0ControlIsEscaped() {
        let expected: [UInt32: String] = [0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x1B: "\\e"]
        for value in UInt32(0x00)...0x1F {
            let text = String(Character(Unicode.Scalar(value)!))
            let hex = String(value, radix: 16)
            let escape = expected[value] ?? "\\x" + (hex.count == 1 ? "0" + hex : hex)
            #expect(TerminalText.escaped("a\(text)b", as: .line) == "a\(escape)b", "U+\(hex)")
            let kept = value == 0x0A || value == 0x09
            #expect(TerminalText.escaped("a\(text)b") == (kept ? "a\(text)b" : "a\(escape)b"), "U+\(hex)")
        }
    }

    @Test func deleteAndEveryC1ControlAreEscaped() {
        #expect(TerminalText.escaped("\u{7F}") == "\\x7f")
        for value in UInt32(0x80)...0x9F {
            let text = String(Character(Unicode.Scalar(value)!))
            #expect(TerminalText.escaped(text) == "\\x" + String(value, radix: 16), "U+\(value)")
        }
        #expect(TerminalText.escaped("\u{9B}31m") == "\\x9b31m")
    }

    @Test func bidiOverridesAndIsolatesAreEscaped() {
        let bidi: [(UInt32, String)] = [
            (0x202A, "\\u{202A}"), (0x202B, "\\u{202B}"), (0x202C, "\\u{202C}"), (0x202D, "\\u{202D}"),
            (0x202E, "\\u{202E}"), (0x2066, "\\u{2066}"), (0x2067, "\\u{2067}"), (0x2068, "\\u{2068}"),
            (0x2069, "\\u{2069}"),
        ]
        for (value, escape) in bidi {
            let text = String(Character(Unicode.Scalar(value)!))
            #expect(TerminalText.escaped("txt.\(text)exe") == "txt.\(escape)exe")
        }
    }

    @Test func printableTextComesThroughUnchanged() {
        for text in [
            "", "Hello, world", "Côte d'Ivoire", "千と千尋の神隠し", "東京", "🇫🇷 👩‍👩‍👧 ❤️", "e\u{301}", "עברית العربية",
            "Ångström \\e is a backslash and an e", "\u{A0}\u{2028}\u{200F}",
        ] {
            #expect(TerminalText.escaped(text) == text)
            #expect(TerminalText.escaped(text, as: .line) == text)
        }
    }

    @Test func aTerminalCommandIsShownNotRun() {
        let title = "Breaking \u{1B}]0;pwned\u{07}news\u{1B}[2J"
        #expect(TerminalText.escaped(title) == "Breaking \\e]0;pwned\\x07news\\e[2J")
        #expect(TerminalText.escaped("é\u{1B}[31m東京\u{1B}[0m🇫🇷") == "é\\e[31m東京\\e[0m🇫🇷")
    }

    @Test func aLongStringWithOneEscapeIsEscapedOnce() {
        let half = String(repeating: "abcdefgh", count: 125_000)
        let escaped = TerminalText.escaped(half + "\u{1B}" + half)
        #expect(escaped.utf8.count == 2_000_002)
        #expect(escaped == half + "\\e" + half)
    }

    @Test func jsonKeepsItsMeaningWithC1AndBidiEscaped() throws {
        let text = "a\u{9B}b\u{202E}c\u{7F}d\u{2066}e 東京"
        let json = String(decoding: try JSONEncoder().encode([text]), as: UTF8.self)
        let escaped = TerminalText.jsonEscaped(json)
        #expect(escaped == #"["a\u009bb\u202ec\u007fd\u2066e 東京"]"#)
        #expect(try JSONDecoder().decode([String].self, from: Data(escaped.utf8)) == [text])
        #expect(TerminalText.jsonEscaped(#"{"plain":"text"}"#) == #"{"plain":"text"}"#)
    }

    @Test func tableCellsStayOnOneLine() {
        let table = Table(
            columns: [.init("TITLE"), .init("LINK")],
            rows: [["one\ntwo\tthree\u{1B}[2J", "x"], ["東京", "y"]]
        )
        #expect(
            table.rendered() == """
                TITLE                 LINK
                one\\ntwo\\tthree\\e[2J  x
                東京                  y
                """
        )
    }

    @Test func lsRemoteOutputEscapesTheServersNames() {
        var advertisement = RefAdvertisement(protocolVersion: 0)
        let oid = String(repeating: "a", count: 40)
        advertisement.refs = [
            AdvertisedRef(objectID: oid, name: "HEAD"),
            AdvertisedRef(objectID: oid, name: "refs/heads/\u{1B}]0;pwned\u{07}"),
            AdvertisedRef(objectID: oid, name: "refs/heads/fake\n\(oid)\trefs/heads/main"),
        ]
        advertisement.symrefs = [(name: "HEAD", target: "refs/heads/\u{1B}]0;pwned\u{07}")]
        let output = LsRemote.output(advertisement, symref: true)
        #expect(
            output == """
                ref: refs/heads/\\e]0;pwned\\x07\tHEAD
                \(oid)\tHEAD
                \(oid)\trefs/heads/\\e]0;pwned\\x07
                \(oid)\trefs/heads/fake\\n\(oid)\\trefs/heads/main

                """
        )
        #expect(LsRemote.output(advertisement, heads: true).split(separator: "\n").count == 2)
        // Chosen by their own names: a bidi control is a well-formed name for --refs, then escaped.
        var bidi = RefAdvertisement(protocolVersion: 0)
        bidi.refs = [AdvertisedRef(objectID: oid, name: "refs/heads/a\u{202E}b")]
        #expect(LsRemote.output(bidi, refsOnly: true) == "\(oid)\trefs/heads/a\\u{202E}b\n")
        #expect(LsRemote.output(bidi, patterns: [RefPattern("a\u{202E}b")]) == "\(oid)\trefs/heads/a\\u{202E}b\n")
    }
}
