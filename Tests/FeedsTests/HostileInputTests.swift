import CourierTestTraits
import Feeds
import Foundation
import Testing

/// Documents built to hurt a parser: each ends quickly with a clear error or a safe result.
@Suite(.loadLimited)
struct HostileInputTests {
    @Test func entityBombsStopAtTheExpansionLimit() {
        var dtd = "<!ENTITY lol0 \"lol\">"
        for level in 1...7 {
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let xml = "<!DOCTYPE rss [\(dtd)]><rss><channel><title>&lol7;</title></channel></rss>"
        #expect {
            try FeedParser().parse(Data(xml.utf8))
        } throws: { error in
            (error as? FeedError) == .limitExceeded(.entityExpansion(1_048_576))
        }
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data("TOP SECRET".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let xml = """
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <rss><channel><title>a&xxe;b</title></channel></rss>
            """
        let feed = try FeedParser().parse(Data(xml.utf8))
        #expect(feed.title == "ab")
        #expect(!feed.isWellFormed)
        #expect(feed.problem == "the external entity &xxe; is not loaded")
    }

    @Test func deepNestingStopsAtTheDepthLimit() {
        let xml = String(repeating: "<a>", count: 100_000)
        #expect {
            try FeedParser().parse(Data(xml.utf8))
        } throws: { error in
            (error as? FeedError) == .limitExceeded(.depth(256))
        }
    }

    /// HTML text full of `<` that start no tag, or start tags that never end: each `<` was
    /// looked at again to the end of the text (quadratic: minutes for a few megabytes). The time
    /// limit only turns a hang into a failure; the work is linear.
    @Test(.hangGuard, arguments: ["&lt;", "&lt;a", "&lt;a x=&quot;"])
    func htmlTextFullOfOpenBracketsIsReadOnce(piece: String) throws {
        let text = "&lt;/p&gt;" + String(repeating: piece, count: 300_000) + " end"
        let xml = "<rss><channel><item><description>\(text)</description></item></channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8))
        let summary = try #require(feed.entries.first?.summary)
        #expect(summary.hasSuffix(" end"))
        #expect(summary.utf8.count > 300_000)
    }

    /// A quoted value that never closes does not turn the rest of the text into markup.
    @Test(arguments: [
        (#"<a href="x>link</a> more <b>text</b><script>alert(1)</script>"#, "link more text"),
        (#"<img alt="it's> <p>Hello</p>"#, "Hello"),
        ("<p>a</p> 1 < 2 <b>b", "a 1 < 2 b"),
    ])
    func anUnclosedQuoteEndsItsTagAtTheFirstBracket(html: String, text: String) throws {
        let escaped = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let xml =
            #"<feed xmlns="http://www.w3.org/2005/Atom"><entry><summary type="html">"#
            + "\(escaped)</summary></entry></feed>"
        let summary = try FeedParser().parse(Data(xml.utf8)).entries.first?.summary
        #expect(summary == text)
    }

    /// Namespace declarations are scoped without copying: a root that declares 100,000 prefixes
    /// and 20,000 children that each declare one more cost as much as the bytes they take.
    @Test(.hangGuard) func manyNamespacePrefixesAreDeclaredOnce() throws {
        var xml = "<rss"
        for index in 0..<100_000 { xml += " xmlns:p\(index)='urn:p\(index)'" }
        xml += "><channel><title>t</title>"
        for index in 0..<20_000 { xml += "<item xmlns:z='urn:z'><title>\(index)</title></item>" }
        xml += "</channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8))
        #expect(feed.entries.count == 20_000)
        #expect(feed.entries.last?.title == "19999")
    }

    /// Each attribute's name was compared with every one before it.
    @Test(.hangGuard) func aTagWithManyAttributesIsReadOnce() throws {
        var tag = "<rss"
        for index in 0..<200_000 { tag += " a\(index)=''" }
        let xml = tag + "><channel><title>t</title></channel></rss>"
        let feed = try FeedParser().parse(Data(xml.utf8))
        #expect(feed.title == "t")
    }

    /// A gigabyte, made lazily: the size bound ends it after a few megabytes.
    struct Endless: AsyncSequence {
        typealias Element = Data
        let chunk = Data(String(repeating: "<item><title>x</title></item>", count: 2000).utf8)
        var chunks: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            let chunk: Data
            var remaining: Int
            var first = true
            mutating func next() async -> Data? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                if first {
                    first = false
                    return Data("<rss><channel>".utf8) + chunk
                }
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunk: chunk, remaining: chunks) }
    }

    @Test func aHugeStreamStopsAtTheSizeLimit() async throws {
        let stream = Endless(chunks: 1_000_000_000 / 58_000)
        let parser = FeedParser(limits: XMLLimits(maximumDocumentSize: 4 << 20))
        var count = 0
        await #expect {
            for try await _ in parser.entries(in: stream) { count += 1 }
        } throws: { error in
            (error as? FeedError) == .limitExceeded(.documentSize(4_194_304))
        }
        #expect(count > 100_000, "entries arrived while the stream was read")
    }

    @Test func entriesStreamBeforeTheFeedEnds() async throws {
        let stream = Endless(chunks: 3)
        var titles: [String] = []
        for try await entry in FeedParser().entries(in: stream) { titles.append(entry.title ?? "") }
        #expect(titles.count == 6000)
        #expect(Set(titles) == ["x"])
    }
}

/// Documents streamed in pieces as small as one byte: every token split at every place.
@Suite(.loadLimited)
struct TrickledInputTests {
    /// Chunks of `size` bytes of `bytes`, as a server trickling them would send them.
    struct Trickle: AsyncSequence {
        typealias Element = Data
        let bytes: [UInt8]
        let size: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            let bytes: [UInt8]
            let size: Int
            var offset = 0
            mutating func next() async -> Data? {
                guard offset < bytes.count else { return nil }
                let end = Swift.min(offset + size, bytes.count)
                defer { offset = end }
                return Data(bytes[offset..<end])
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, size: size) }
    }

    static let documents = [
        """
        <?xml version="1.0"?><!-- a -- comment - with -- dashes --><!DOCTYPE rss [<!ENTITY e "v>[]">
        <!-- ] > -->]><rss><channel><item a='>' b=">'"><title>&e;<![CDATA[x]]y]]>z</title></item>
        <item><title><?pi ? > ?>t</title></item></channel></rss>
        """,
        "<rss><channel><item><title>a<!-</title></item><item><title>b<!-- c -></title></item></channel></rss>",
        "<rss><channel><item><title>x</title ></item><item><title>y<![CDAT[z]]></title></item></channel></rss>",
    ]

    @Test(arguments: documents, [1, 2, 3, 7])
    func streamingInAnyPiecesGivesTheSameEntries(document: String, size: Int) async throws {
        let whole = try FeedParser().parse(Data(document.utf8)).entries
        var streamed: [Entry] = []
        for try await entry in FeedParser().entries(in: Trickle(bytes: Array(document.utf8), size: size)) {
            streamed.append(entry)
        }
        #expect(streamed == whole)
        #expect(whole.count == 2)
    }

    /// A comment, a start tag, text, CDATA and a declaration, each 4 MiB and trickled 64 bytes at
    /// a time (Fuzz/findings/feeds): a tokenizer that scanned the unfinished token from its start
    /// on every chunk did about 10^11 steps here, minutes; resuming where it stopped, a few
    /// million.
    @Test(
        .hangGuard,
        arguments: [
            ("<!--", "-->"), ("<title a='x' ", ">"), ("", "<title>"), ("<![CDATA[", "]]>"), ("<!DOCTYPE x [", "]>"),
        ]
    )
    func aLongTokenTrickledInSmallPiecesIsReadOnce(open: String, close: String) async throws {
        let filler = open.hasPrefix("<title") ? " b='a>b'" : "-]] "
        var bytes = Array("<rss><channel><item><title>1</title></item>\(open)".utf8)
        let fill = Array(filler.utf8)
        while bytes.count < 4 << 20 { bytes += fill }
        bytes += Array("\(close)</title><item><title>2</title></item></channel></rss>".utf8)
        var titles: [String?] = []
        for try await entry in FeedParser().entries(in: Trickle(bytes: bytes, size: 64)) {
            titles.append(entry.title)
        }
        #expect(titles.first == "1")
        #expect(titles.last == "2")
    }
}
