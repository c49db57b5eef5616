import CourierTestTraits
import Testing

@testable import LibrarySearch

@Suite(.loadLimited)
struct PrefixIndexTests {
    let titles = ["Dune", "dubliners", "Emma", "Du côté de chez Swann", "Don Quixote", "Dune Messiah", "dune"]

    private func matches(_ prefix: String, in index: PrefixIndex) -> [String] {
        index.range(ofPrefix: prefix).map { titles[index.order[$0]] }
    }

    @Test func findsEveryKeyStartingWithThePrefixInKeyOrder() {
        let index = PrefixIndex(keys: titles)
        #expect(matches("du", in: index) == ["Du côté de chez Swann", "dubliners", "Dune", "dune", "Dune Messiah"])
        #expect(matches("DUNE", in: index) == ["Dune", "dune", "Dune Messiah"])
        #expect(matches("du co", in: index) == ["Du côté de chez Swann"])
        #expect(matches("e", in: index) == ["Emma"])
    }

    @Test func equalKeysKeepTheirOriginalOrder() {
        let index = PrefixIndex(keys: titles)
        #expect(matches("dune", in: index).prefix(2) == ["Dune", "dune"])
    }

    @Test func emptyPrefixMatchesEverythingAndMissesMatchNothing() {
        let index = PrefixIndex(keys: titles)
        #expect(index.range(ofPrefix: "") == 0..<titles.count)
        #expect(index.range(ofPrefix: "   ") == 0..<titles.count)
        #expect(index.range(ofPrefix: "a").isEmpty)
        #expect(index.range(ofPrefix: "zzz").isEmpty)
        #expect(index.range(ofPrefix: "dune messiah and more").isEmpty)
        #expect(PrefixIndex(keys: [String]()).range(ofPrefix: "x").isEmpty)
    }

    @Test func agreesWithALinearScanOnRandomKeys() {
        var generator = SplitMix64(seed: 42)
        let alphabet = Array("abcé É")
        let keys = (0..<2000).map { _ in
            String(
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            )
        }
        let index = PrefixIndex(keys: keys)
        let foldedKeys = keys.map { SearchKey.fold($0) }
        for _ in 0..<300 {
            let prefix = String(
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            )
            let folded = SearchKey.fold(prefix)
            let expected = keys.indices.filter { foldedKeys[$0].starts(with: folded) }
            let found = index.range(ofPrefix: prefix).map { index.order[$0] }
            #expect(found.sorted() == expected, "prefix '\(prefix)'")
        }
    }
}
