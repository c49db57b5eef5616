import Courier
import CourierJSON
import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `JSONFormatter` on whole texts: pretty-printing with sorted keys and picking on the bytes.
@Suite(.loadLimited)
struct JSONFormatterTests {
    private func format(_ text: String, compact: Bool = false) throws(JSONSyntaxError) -> String {
        var output: [UInt8] = []
        try JSONFormatter.format(Array(text.utf8), compact: compact, sortingKeys: true) {
            output.append(contentsOf: $0)
        }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func prettyPrintsWithSortedKeysAndKeepsTokensAsWritten() throws {
        let text = #"  {"b": [1, 2.50, {"z": null, "a": true}], "a": "x\u00e9\/", "c": {}, "d": [], "e": -0.0e+5 } "#
        #expect(
            try format(text) == """
                {
                  "a" : "x\\u00e9/",
                  "b" : [
                    1,
                    2.50,
                    {
                      "a" : true,
                      "z" : null
                    }
                  ],
                  "c" : {},
                  "d" : [],
                  "e" : -0.0e+5
                }

                """
        )
        #expect(
            try format(text, compact: true)
                == #"{"a":"x\u00e9/","b":[1,2.50,{"a":true,"z":null}],"c":{},"d":[],"e":-0.0e+5}"# + "\n"
        )
    }

    @Test func sortsKeysByCodePointsWithEscapesResolvedAndKeepsDuplicatesInOrder() throws {
        let text = #"{"c": 1, "\u0062": 2, "a": 3, "B": 4, "é": 5, "a": 6, "\ud83d\ude00": 7}"#
        #expect(
            try format(text, compact: true) == #"{"B":4,"a":3,"a":6,"\u0062":2,"c":1,"é":5,"\ud83d\ude00":7}"# + "\n"
        )
    }

    @Test(.hangGuard)
    func stringsFullOfEscapesDecodeInLinearTime() throws {
        let escapes = String(repeating: #"\n"#, count: 30_000)
        let value = try #require(try JSONFormatter.value(at: ["s"], in: Array(#"{"s":"\#(escapes)","t":1}"#.utf8)))
        #expect(JSONFormatter.string(value) == String(repeating: "\n", count: 30_000))
        let keys = #"{"\#(escapes)":1,"a\/b":2}"#
        // The key of line feeds sorts first; `\/` in a key is written `/`, as in a value.
        #expect(try format(keys, compact: true).hasSuffix(#":1,"a/b":2}"# + "\n"))
    }

    @Test func aHundredThousandDigitNumberStaysExact() throws {
        let digits = String(repeating: "7", count: 100_000)
        #expect(try format("[\(digits)]", compact: true) == "[\(digits)]\n")
    }

    @Test func nestingPastTheLimitIsALimitNotASyntaxError() throws {
        let depth = JSONSyntax.maximumDepth
        let fits = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(try format(fits, compact: true) == fits + "\n")
        do throws(JSONSyntaxError) {
            _ = try format("[" + fits + "]")
            Issue.record("nesting past the limit was formatted")
        } catch {
            #expect(error.exceedsNestingLimit)
        }
        do throws(JSONSyntaxError) {
            _ = try format("{\"a\": tru}")
            Issue.record("invalid JSON was formatted")
        } catch {
            #expect(!error.exceedsNestingLimit)
            #expect(error.description == "line 1, column 7: expected a value, found 'tru'")
        }
    }

    @Test func formattedTextParsesToTheSameValue() throws {
        var generator = SeededGenerator()
        for _ in 0..<100 {
            let text = Self.randomJSON(depth: 0, using: &generator)
            let original = try JSONValue(parsing: Data(text.utf8))
            for compact in [false, true] {
                let formatted = try format(text, compact: compact)
                #expect(try JSONValue(parsing: Data(formatted.utf8)) == original, "\(text)")
            }
        }
    }

    @Test(.hangGuard)
    func largeObjectsAndManyContainersTakeLinearTime() throws {
        // 60,000 keys in one object, in reverse order; and 40,000 small objects in an array.
        let keys = (0..<20_000).reversed().map { "\"key\($0)\":\($0)" }.joined(separator: ",")
        var count = 0
        try JSONFormatter.format(Array("{\(keys)}".utf8), sortingKeys: true) { count += $0.count }
        #expect(count > 20_000 * 10)
        let objects = "[" + Array(repeating: #"{"b":[1,{"c":2}],"a":0}"#, count: 10_000).joined(separator: ",") + "]"
        count = 0
        try JSONFormatter.format(Array(objects.utf8), compact: true, sortingKeys: true) { count += $0.count }
        #expect(count == objects.utf8.count + 1)
    }

    @Test func picksAValueWithoutParsingTheRest() throws {
        let text = Array(
            #"{"results": [{"title": "Dune"}, {"title": "A \"B\" \u00e9 \ud83d\ude00", "n": [1, 2]}], "x": tru"#.utf8
        )
        do throws(JSONSyntaxError) {
            _ = try JSONFormatter.value(at: ["results"], in: text)
            Issue.record("a value was picked from invalid JSON")
        } catch {}
        let valid = Array(
            #"{"results": [{"title": "Dune"}, {"title": "A \"B\" \u00e9 \ud83d\ude00", "n": [1, 2]}]}"#.utf8
        )
        let title = try #require(try JSONFormatter.value(at: ["results", "1", "title"], in: valid))
        #expect(JSONFormatter.string(title) == "A \"B\" é 😀")
        let numbers = try #require(try JSONFormatter.value(at: ["results", "1", "n"], in: valid))
        #expect(String(decoding: numbers, as: UTF8.self) == "[1, 2]")
        #expect(try JSONFormatter.value(at: ["results", "2"], in: valid) == nil)
        #expect(JSONFormatter.components(ofPath: "results[1].title") == ["results", "1", "title"])
        #expect(JSONFormatter.components(ofPath: "results[-1]") == nil)
        #expect(JSONFormatter.components(ofPath: "results.-1") == nil)
    }

    /// A random JSON text of objects, arrays, strings with escapes, numbers and literals.
    static func randomJSON(depth: Int, using generator: inout SeededGenerator) -> String {
        let scalars = [
            "0", "-12", "3.25e-3", "true", "false", "null", #""a\nb""#, #""\u00e9\u0000""#, #""""#, #""x y""#,
        ]
        guard depth < 4, Int.random(in: 0..<3, using: &generator) > 0 else {
            return scalars[Int.random(in: 0..<scalars.count, using: &generator)]
        }
        let count = Int.random(in: 0..<5, using: &generator)
        if Bool.random(using: &generator) {
            let members = (0..<count).map { _ in
                let key = ["a", "b", "B", "é", #"\u0062"#, "key"][Int.random(in: 0..<6, using: &generator)]
                return "\"\(key)\" :\(randomJSON(depth: depth + 1, using: &generator))"
            }
            return "{" + members.joined(separator: " , ") + "}"
        }
        return "[ " + (0..<count).map { _ in randomJSON(depth: depth + 1, using: &generator) }.joined(separator: ",")
            + "]"
    }
}
