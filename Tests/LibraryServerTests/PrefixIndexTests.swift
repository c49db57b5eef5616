import Testing

@testable import LibraryServer

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
        var generator = SplitMix(seed: 42)
        let alphabet = Array("abcé É")
        let keys = (0..<2000).map { _ in
            String(
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            )
        }
        let index = PrefixIndex(keys: keys)
        for _ in 0..<300 {
            let prefix = String(
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            )
            let folded = SearchKey.fold(prefix)
            let expected = keys.indices.filter { SearchKey.fold(keys[$0]).starts(with: folded) }
            let found = index.range(ofPrefix: prefix).map { index.order[$0] }
            #expect(found.sorted() == expected, "prefix '\(prefix)'")
        }
    }
}

/// A seeded generator, so a failure can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
