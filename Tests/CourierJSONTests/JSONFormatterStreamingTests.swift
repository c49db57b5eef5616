import Courier
import CourierJSON
import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `JSONFormatter` fed in pieces: the same output and the same errors however the text is cut,
/// document order in constant memory, picking that stops at the value's end.
@Suite(.loadLimited)
struct JSONFormatterStreamingTests {
    struct Output {
        var text = ""
        var pieces = 0
        var error: JSONSyntaxError?
        var finishedEarly = false
        var found = false
        var largestBuffer = 0
    }

    /// Formats `bytes` cut into pieces of the given sizes (repeated), or whole.
    static func format(
        _ bytes: [UInt8],
        in sizes: [Int] = [],
        compact: Bool = false,
        sortingKeys: Bool = false,
        picking path: [String]? = nil
    ) -> Output {
        var formatter = JSONFormatter(compact: compact, sortingKeys: sortingKeys, picking: path)
        var result = Output()
        var written: [UInt8] = []
        let write = { (piece: ArraySlice<UInt8>) in
            written.append(contentsOf: piece)
            result.pieces += 1
        }
        do throws(JSONSyntaxError) {
            var start = 0
            var next = 0
            while start < bytes.count {
                let size = sizes.isEmpty ? bytes.count : sizes[next % sizes.count]
                next += 1
                let end = min(bytes.count, start + size)
                let more = try formatter.format(bytes[start..<end], to: write)
                result.largestBuffer = max(result.largestBuffer, formatter.bufferedCount)
                start = end
                if !more {
                    result.finishedEarly = start < bytes.count
                    break
                }
            }
            try formatter.finish(to: write)
        } catch {
            result.error = error
        }
        result.found = formatter.foundValue
        result.text = String(decoding: written, as: UTF8.self)
        return result
    }

    static func validationError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do throws(JSONSyntaxError) {
            try JSONSyntax.validate(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func documentOrderKeepsTheTextsOrderAndTokens() {
        let text = Array(#"{"b": [1, 2.50, {"z": null, "a": true}], "a": "x\u00e9\/é", "c": {}, "d": [] }"#.utf8)
        let pretty = Self.format(text, in: [1])
        #expect(pretty.error == nil)
        #expect(
            pretty.text == """
                {
                  "b" : [
                    1,
                    2.50,
                    {
                      "z" : null,
                      "a" : true
                    }
                  ],
                  "a" : "x\\u00e9/é",
                  "c" : {},
                  "d" : []
                }

                """
        )
        #expect(pretty.largestBuffer == 0)
        #expect(
            Self.format(text, compact: true).text
                == #"{"b":[1,2.50,{"z":null,"a":true}],"a":"x\u00e9/é","c":{},"d":[]}"# + "\n"
        )
    }

    @Test func everyCutOfTheTextFormatsTheSame() throws {
        var generator = SeededGenerator()
        let extra = [
            #"{"é😀": ["ﬁ", "\ud83d\ude00", -0.5E+10, 1e-7, 0], "k": {"x": [[]], "a": {"b": "\"\\"}}}"#,
            "\u{FEFF}[1, \"\u{10FFFF}\", {}]",
        ]
        let texts = extra + (0..<60).map { _ in JSONFormatterTests.randomJSON(depth: 0, using: &generator) }
        for text in texts {
            let bytes = Array(text.utf8)
            for (compact, sorting) in [(false, false), (true, false), (false, true), (true, true)] {
                let whole = Self.format(bytes, compact: compact, sortingKeys: sorting)
                #expect(whole.error == nil, "\(text)")
                for sizes in [[1], [2, 3], [5, 1, 7]] {
                    let cut = Self.format(bytes, in: sizes, compact: compact, sortingKeys: sorting)
                    #expect(cut.text == whole.text, "\(text) \(sizes)")
                }
                if !sorting {
                    #expect(
                        try JSONValue(parsing: Data(whole.text.utf8)) == JSONValue(parsing: Data(bytes)),
                        "\(text)"
                    )
                }
            }
        }
    }

    /// Every text the validator refuses, the formatter refuses with the same message and
    /// position, however it is cut; and what the validator accepts, the formatter formats.
    @Test func errorsMatchTheValidatorWherever() {
        var cases = [
            "", " ", "[1,]", "[1 2]", "{\"a\" 1}", "{a: 1}", "[01]", "-01", "[1.]", "1.", "-", "[-]", "[1e]", "1e+",
            "[tru]", "tru", "nul", "[falsey]", "[\"a\nb\"]", "[\"\\u12\"]", "[\"\\u12", "[\"\\", "[\"\\x\"]", "[] []",
            "\"abc", "[1,\n2,\n  3", "{\"a\":", "{\"a\"", "{\"a\":1,", "{\"a\":1,}", "[,", "{,", "{\"a\":1 \"b\"",
            "[1.x]", "[-x]", "[1.2.3]", "[1e5e5]", "[0x12]", "[+1]", "[.5]", "[\"\u{7F}\t\"]", "}", "]", ":", "1 2",
            "\u{FEFF}", "\u{FEFF}x", "[123456789012345678901234567890.x]", "[tttttttttttttttttttttttttttttttt]",
            "{\"é\": [\"😀\", x]}", "[\"é\" 1]", "{\"\":[- ", String(repeating: "[", count: 513),
            String(repeating: "[", count: 512) + String(repeating: "]", count: 511),
        ].map { Array($0.utf8) }
        cases += [
            [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x5B, 0x22, 0xE2, 0x82], [0xEF, 0xBB], [0xEF], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xFF, 0x22],
            [0x5B, 0x22, 0xF0, 0x9F, 0x98, 0x22, 0x5D],
        ]
        var generator = SeededGenerator()
        for _ in 0..<300 {
            var bytes = Array(JSONFormatterTests.randomJSON(depth: 0, using: &generator).utf8)
            let position = Int.random(in: 0..<max(bytes.count, 1), using: &generator)
            let noise: [UInt8] = [
                0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x2D, 0x30, 0x2E, 0x65, 0x0A, 0xC3, 0x01,
            ]
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where !bytes.isEmpty: bytes.remove(at: position)
            case 1: bytes.insert(noise[Int.random(in: 0..<noise.count, using: &generator)], at: position)
            default: if !bytes.isEmpty { bytes[position] = noise[Int.random(in: 0..<noise.count, using: &generator)] }
            }
            cases.append(bytes)
        }
        for bytes in cases {
            let expected = Self.validationError(bytes)
            for sizes in [[], [1], [2, 5]] {
                let result = Self.format(bytes, in: sizes)
                #expect(
                    result.error?.description == expected?.description,
                    "\(String(decoding: bytes, as: UTF8.self).debugDescription) \(sizes)"
                )
                #expect(result.error?.exceedsNestingLimit == expected?.exceedsNestingLimit)
            }
        }
    }

    @Test func pickingWritesOneValueAndStopsAtItsEnd() {
        let text = Array(
            #"{"results": [{"title": "Dune"}, {"n": [1, {"b": 2, "a": 3}], "title": "A\/é"}], "x": tru"#.utf8
        )
        let title = Self.format(text, in: [3], picking: ["results", "1", "title"])
        #expect(title.error == nil)
        #expect(title.text == "\"A/é\"\n")
        #expect(title.found && title.finishedEarly)
        let numbers = Self.format(text, in: [4], sortingKeys: true, picking: ["results", "1", "n"])
        #expect(numbers.text == "[\n  1,\n  {\n    \"a\" : 3,\n    \"b\" : 2\n  }\n]\n")
        let compact = Self.format(text, compact: true, picking: ["results", "1", "n", "1", "b"])
        #expect(compact.text == "2\n")
        for nowhere in [
            ["results", "2"], ["results", "0", "title", "x"], ["results", "a"], ["results", "0", "name"],
        ] {
            let missing = Self.format(text, in: [1], picking: nowhere)
            #expect(missing.error == nil && !missing.found && missing.text.isEmpty, "\(nowhere)")
            #expect(missing.finishedEarly, "\(nowhere)")
        }
        // A key with escapes matches its text; a path through a scalar leads nowhere.
        let escaped = Array(#"{"a\u0062": {"c": [true]}, "ab": 1}"#.utf8)
        #expect(Self.format(escaped, in: [2], picking: ["ab", "c", "0"]).text == "true\n")
        #expect(!Self.format(Array("5".utf8), picking: ["a"]).found)
        #expect(Self.format(Array("  5 ".utf8), picking: []).text == "5\n")
        // Not found anywhere in a valid text: the whole text is read and no error thrown.
        let whole = Self.format(Array(#"{"a": 1}"#.utf8), picking: ["b"])
        #expect(whole.error == nil && !whole.found)
        // A number ends at the byte after it: a text cut after one is cut, not picked.
        for (cut, path) in [(#"{"a": 12"#, ["a"]), ("[1, 2", ["1"]), (#"{"a": 12"#, ["a", "b"])] {
            let result = Self.format(Array(cut.utf8), in: [1], picking: path)
            #expect(result.error?.description == Self.validationError(Array(cut.utf8))?.description, "\(cut)")
            #expect(!result.found)
        }
        // An error before the value is still an error.
        #expect(Self.format(Array(#"{"a": tru, "b": 1}"#.utf8), picking: ["b"]).error != nil)
    }

    @Test func sortingHoldsOnlyTheOutermostObject() {
        let object = #"{"b": {"y": [1, 2, 3], "x": "é"}, "a": 0}"#
        let text = Array(("[" + Array(repeating: object, count: 200).joined(separator: ", ") + "]").utf8)
        let sorted = Self.format(text, in: [64], compact: true, sortingKeys: true)
        #expect(sorted.error == nil)
        let one = #"{"a":0,"b":{"x":"é","y":[1,2,3]}}"#
        #expect(sorted.text == "[" + Array(repeating: one, count: 200).joined(separator: ",") + "]\n")
        #expect(sorted.largestBuffer > 0 && sorted.largestBuffer <= object.utf8.count)
        // A limit on what is held: an object past it is refused as a limit, not as bad syntax.
        var limited = JSONFormatter(sortingKeys: true, maximumObjectSize: object.utf8.count)
        #expect(throws: Never.self) { try limited.format(text) { _ in } }
        var tight = JSONFormatter(sortingKeys: true, maximumObjectSize: object.utf8.count - 1)
        do throws(JSONSyntaxError) {
            try tight.format(text[..<10]) { _ in }
            try tight.format(text[10...]) { _ in }
            Issue.record("an object past the limit was held")
        } catch {
            #expect(error.exceedsSizeLimit && !error.exceedsNestingLimit)
        }
        // The limit's error does not depend on where the text is cut: a syntax error inside the
        // object comes first; a valid object past the limit is refused at its start.
        for (text, expected) in [
            (#"[{"abcdefghijk": x}]"#, "line 1, column 18: expected a value, found 'x'"),
            (#"[{"abcdefghijk": 1}]"#, "line 1, column 2: an object larger than 10 bytes, held whole to sort its keys"),
        ] {
            for sizes in [[], [1], [3]] {
                var formatter = JSONFormatter(sortingKeys: true, maximumObjectSize: 10)
                let bytes = Array(text.utf8)
                var thrown: JSONSyntaxError?
                do throws(JSONSyntaxError) {
                    var start = 0
                    while start < bytes.count {
                        let end = sizes.isEmpty ? bytes.count : min(bytes.count, start + sizes[0])
                        try formatter.format(bytes[start..<end]) { _ in }
                        start = end
                    }
                    try formatter.finish { _ in }
                } catch {
                    thrown = error
                }
                #expect(thrown?.description == expected, "\(text) \(sizes)")
            }
        }
        // In document order, nothing is held, and the output leaves as the text arrives.
        let plain = Self.format(text, in: [64])
        #expect(plain.largestBuffer == 0)
        #expect(plain.pieces >= text.count / 64)
    }

    @Test func aDeepValueCutEverywhereIsStillLinear() {
        // 512 levels of arrays and objects, byte by byte: no rescans of what came before.
        let depth = JSONSyntax.maximumDepth / 2
        let open = String(repeating: #"{"k": ["#, count: depth)
        let close = String(repeating: "]}", count: depth)
        let text = Array((open + String(repeating: "7", count: 50_000) + close).utf8)
        let result = Self.format(text, in: [1], compact: true)
        #expect(result.error == nil)
        #expect(result.text.utf8.count == text.count - depth + 1)
    }
}
