import CourierTestTraits
import CourierXML
import Testing

/// `XMLPathReader`: the values at a few paths, without an event handler (issue 32).
@Suite(.loadLimited)
struct XMLPathReaderTests {
    static let rss = """
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
          <title>Shows</title>
          <item><title>One <b>bold</b> move</title><enclosure url="https://e.test/1.mp3" length="1"/>
            <media:thumbnail url="https://e.test/1.jpg"/></item>
          <item><title><![CDATA[Two & more]]></title><enclosure url="https://e.test/2.mp3"/></item>
        </channel></rss>
        """

    static func values(_ paths: [String], namespaces: [String: String] = [:]) throws -> [String] {
        try XMLPathReader.matches(paths, in: Array(rss.utf8), namespaces: namespaces).map { "\($0.path)=\($0.value)" }
    }

    @Test func elementsAndAttributesAtAnyDepthOrFromTheRoot() throws {
        #expect(
            try Self.values(["item/title", "enclosure/@url"]) == [
                "item/title=One bold move", "enclosure/@url=https://e.test/1.mp3",
                "item/title=Two & more", "enclosure/@url=https://e.test/2.mp3",
            ]
        )
        #expect(try Self.values(["/rss/channel/title"]) == ["/rss/channel/title=Shows"])
        #expect(try Self.values(["/channel/title"]).isEmpty, "a path from the root starts at the root")
        #expect(try Self.values(["channel/*/title"]).count == 2)
    }

    @Test func prefixesAreTheCallersAndAnUnprefixedStepMatchesAnyNamespace() throws {
        let media = ["m": "http://search.yahoo.com/mrss/"]
        #expect(try Self.values(["m:thumbnail/@url"], namespaces: media) == ["m:thumbnail/@url=https://e.test/1.jpg"])
        #expect(try Self.values(["thumbnail/@url"]) == ["thumbnail/@url=https://e.test/1.jpg"])
        #expect(try Self.values(["m:title"], namespaces: media).isEmpty)
    }

    @Test func declarationsAreNoAttributesAndXMLIsAlwaysKnown() throws {
        let document = Array(#"<r xmlns:lang="urn:l" xml:lang="fr" lang="x"/>"#.utf8)
        let any = try XMLPathReader.matches(["r/@lang"], in: document).map(\.value)
        #expect(any == ["fr", "x"], "xml:lang and lang, not the xmlns:lang declaration")
        #expect(try XMLPathReader.matches(["r/@xml:lang"], in: document).map(\.value) == ["fr"])
    }

    @Test func theMatchCarriesItsElementsAttributes() throws {
        let matches = try XMLPathReader.matches(["item/enclosure"], in: Array(Self.rss.utf8))
        #expect(matches.first?.attributes.value(of: "length") == "1")
    }

    @Test(arguments: [
        ("", "it has an empty step"), ("a//b", "it has an empty step"), ("/", "it has an empty step"),
        ("@id", "an attribute step (@) must be the last, after an element"),
        ("a/@id/b", "an attribute step (@) must be the last, after an element"),
        ("x:a", "the prefix x is not in the namespaces given"), ("x:", "the step x: has no name"),
    ])
    func aPathThatCannotBeReadSaysWhy(path: String, reason: String) {
        #expect(throws: XMLPathError(path: path, reason: reason)) { try XMLPathReader([path]) }
    }

    /// Text collected for a path counts toward the token limit, once for each open match.
    @Test func collectedTextIsBounded() throws {
        let nested =
            String(repeating: "<d>", count: 100) + String(repeating: "x", count: 1000)
            + String(repeating: "</d>", count: 100)
        #expect(throws: XMLError.limitExceeded(.tokenSize(10_000))) {
            try XMLPathReader.matches(["d"], in: Array(nested.utf8), limits: XMLLimits(maximumTokenSize: 10_000))
        }
        let whole = "<r>" + String(repeating: "<i>yy</i>", count: 10_000) + "</r>"
        #expect(throws: XMLError.limitExceeded(.tokenSize(10_000))) {
            try XMLPathReader.matches(["/r"], in: Array(whole.utf8), limits: XMLLimits(maximumTokenSize: 10_000))
        }
        #expect(
            try XMLPathReader.matches(["i"], in: Array(whole.utf8), limits: XMLLimits(maximumTokenSize: 10_000)).count
                == 10_000
        )
    }

    @Test func aTruncatedDocumentDeliversWhatItOpened() throws {
        var reader = try XMLPathReader(["item/title"])
        var values: [String] = []
        try reader.read(Array("<rss><item><title>Cut sh".utf8)) { values.append($0.value) }
        #expect(values.isEmpty)
        try reader.finish { values.append($0.value) }
        #expect(values == ["Cut sh"])
        #expect(!reader.isWellFormed)
    }
}
