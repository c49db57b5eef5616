import Courier
import CourierTestTraits
import Testing

@Suite(.loadLimited)
struct JSONSyntaxTests {
    private func error(in text: String) -> String? {
        do throws(JSONSyntaxError) {
            try JSONSyntax.validate(Array(text.utf8))
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        arguments: [
            #"{"a": [1, -2.5e+3, true, false, null, "x\u00e9\n"], "b": {}}"#,
            " [ ] ",
            "\u{FEFF}[]",
            #""só 🇫🇷""#,
            "0",
        ]
    )
    func acceptsValidJSON(_ text: String) {
        #expect(error(in: text) == nil)
    }

    @Test(
        arguments: [
            ("", "line 1, column 1: unexpected end of the text: expected a value"),
            ("[1,]", "line 1, column 4: expected a value, found ']'"),
            ("[1 2]", "line 1, column 4: expected ',' or ']' after an array element, found '2'"),
            ("{\"a\" 1}", "line 1, column 6: expected ':' after the object key, found '1'"),
            ("{a: 1}", "line 1, column 2: expected a string key in double quotes, found 'a'"),
            ("[01]", "line 1, column 2: invalid number: no leading zeros allowed"),
            ("[1.]", "line 1, column 2: invalid number '1.'"),
            ("[tru]", "line 1, column 2: expected a value, found 'tru'"),
            ("[\"a\nb\"]", "line 1, column 4: control character U+000A inside a string: escape it"),
            ("[\"\\u12\"]", "line 1, column 3: invalid escape: \\u needs four hexadecimal digits"),
            (
                "[\n\n  {\"a\": 1}",
                "line 3, column 11: unexpected end of the text: the array opened at line 1, column 1 is not closed"
            ),
            ("[] []", "line 1, column 4: unexpected '[' after the end of the JSON value"),
            (
                "\"é",
                "line 1, column 3: unexpected end of the text: the string opened at line 1, column 1 is not closed"
            ),
        ]
    )
    func explainsWhereAndWhat(_ text: String, _ expected: String) {
        #expect(error(in: text) == expected)
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONSyntaxError.self) { try JSONSyntax.validate([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONSyntax.validate([0x22, 0xED, 0xA0, 0x80, 0x22]) }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(error(in: deep) == "line 1, column 513: arrays and objects nest deeper than 512 levels")
    }

    @Test func findsValuesByPath() {
        let text = Array("[\n  {\"title\": \"A\"},\n  {\"ti\\u0074le\": \"B\", \"year\": 1}\n]".utf8)
        #expect(JSONSyntax.position(of: ["1", "year"], in: text)?.description == "line 3, column 31")
        #expect(JSONSyntax.position(of: ["1", "title"], in: text)?.description == "line 3, column 18")
        #expect(JSONSyntax.position(of: ["0"], in: text)?.description == "line 2, column 3")
        #expect(JSONSyntax.position(of: ["2"], in: text) == nil)
        #expect(JSONSyntax.position(of: ["0", "year"], in: text) == nil)
        #expect(JSONSyntax.position(of: ["x"], in: text) == nil)
    }
}
