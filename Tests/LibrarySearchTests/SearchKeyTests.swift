import CourierTestTraits
import Testing

@testable import LibrarySearch

@Suite(.loadLimited)
struct SearchKeyTests {
    @Test(
        arguments: [
            ("Côte d'Ivoire", "cote d'ivoire"),
            ("ÉTRANGER", "etranger"),
            ("Straße", "strasse"),
            ("Œuvres complètes", "oeuvres completes"),
            ("Æsop's Fables", "aesop's fables"),
            ("Łódź", "lodz"),
            ("Øresund", "oresund"),
            ("ﬁfty", "fifty"),
            ("Ｆｕｌｌ", "full"),
            ("İstanbul", "istanbul"),
            ("ὈΔΎΣΣΕΙΑ", "οδυσσεια"),
            ("Alice’s  Adventures\tin", "alice's adventures in"),
            ("  War", "war"),
            ("日本", "日本"),
            ("Ça", "ca"),
        ]
    )
    func folds(_ text: String, _ expected: String) {
        #expect(String(decoding: SearchKey.fold(text), as: UTF8.self) == expected)
    }

    @Test func asciiAndUnicodePathsAgree() {
        for text in ["Hello World", "the GREAT gatsby", "A\u{0}B"] {
            let viaUnicode = SearchKey.fold(text + "é").dropLast()
            #expect(Array(viaUnicode) == SearchKey.fold(text))
        }
    }
}
