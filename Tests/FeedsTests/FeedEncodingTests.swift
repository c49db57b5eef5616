import CourierTestTraits
import Feeds
import Foundation
import Synchronization
import Testing

/// Encodings read as a stream and as a whole document: the system's iconv for what Foundation
/// lacks, the mislabelled-Latin-1 rule, and feedparser's fallbacks.
@Suite(.loadLimited)
struct FeedEncodingTests {
    /// Chunks of `size` bytes, counting how many were taken.
    struct Counted: AsyncSequence {
        typealias Element = Data
        let bytes: [UInt8]
        let size: Int
        let taken = Counter()

        final class Counter: Sendable {
            let value = Mutex(0)
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            let bytes: [UInt8]
            let size: Int
            let taken: Counter
            var offset = 0
            mutating func next() async -> Data? {
                guard offset < bytes.count else { return nil }
                let end = Swift.min(offset + size, bytes.count)
                defer { offset = end }
                taken.value.withLock { $0 += 1 }
                return Data(bytes[offset..<end])
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, size: size, taken: taken) }
    }

    static func stream(_ bytes: [UInt8], size: Int = 1, contentType: String? = nil) async throws -> (Feed, [Entry]) {
        var iterator = FeedParser().entries(in: Counted(bytes: bytes, size: size), contentType: contentType)
            .makeAsyncIterator()
        var entries: [Entry] = []
        while let entry = try await iterator.next() { entries.append(entry) }
        return (iterator.feed, entries)
    }

    static func rss(_ encoding: String?, title: [UInt8]) -> [UInt8] {
        let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? ""
        return Array("\(declaration)<rss version=\"2.0\"><channel><title>".utf8) + title
            + Array("</title><item><title>".utf8) + title + Array("</title></item></channel></rss>".utf8)
    }

    @Test func encodingsFoundationLacksAreReadThroughIconv() async throws {
        // 년 in EUC-KR, and 中文 in GB2312 and Big5.
        for (name, bytes, text) in [
            ("euc-kr", [0xB3, 0xE2] as [UInt8], "년"), ("gb2312", [0xD6, 0xD0, 0xCE, 0xC4], "中文"),
            ("big5", [0xA4, 0xA4, 0xA4, 0xE5], "中文"),
        ] {
            let document = Self.rss(name, title: bytes)
            let whole = try FeedParser().parse(Data(document))
            #expect(whole.title == text, "\(name)")
            #expect(whole.isWellFormed, "\(name)")
            // Streamed a byte at a time: characters cut between pieces wait for the rest.
            let (feed, entries) = try await Self.stream(document)
            #expect(feed.title == text && entries.first?.title == text, "\(name)")
            #expect(feed.isWellFormed, "\(name)")
        }
    }

    @Test func utf8LabelledLatin1IsReadAsUTF8() async throws {
        let mislabelled = Self.rss("iso-8859-1", title: Array("Café – naïve".utf8))
        let whole = try FeedParser().parse(Data(mislabelled))
        #expect(whole.title == "Café – naïve")
        #expect(!whole.isWellFormed)
        #expect(whole.problem == "the document says it is iso-8859-1 but is written in UTF-8; read as UTF-8")
        let (feed, entries) = try await Self.stream(mislabelled)
        #expect(entries.first?.title == "Café – naïve")
        #expect(feed.problem == whole.problem)

        // A document really in Latin-1 keeps its encoding: E9 followed by ASCII is not UTF-8.
        let latin = Self.rss(
            "iso-8859-1",
            title: Array("Caf".utf8) + [0xE9, 0x20] + Array("na".utf8) + [0xEF, 0x76, 0x65]
        )
        let genuine = try FeedParser().parse(Data(latin))
        #expect(genuine.title == "Café naïve")
        #expect(genuine.isWellFormed)
        let (streamedFeed, streamed) = try await Self.stream(latin)
        #expect(streamed.first?.title == "Café naïve")
        #expect(streamedFeed.isWellFormed)

        // An ASCII document keeps its label and is well-formed.
        let ascii = try FeedParser().parse(Data(Self.rss("iso-8859-1", title: Array("Cafe".utf8))))
        #expect(ascii.isWellFormed)
    }

    @Test func aWholeDocumentFallsBackWholeAStreamByteByByte() async throws {
        // Valid UTF-8 (Ñ¨ as UTF-8 is Ѩ) and then a byte UTF-8 does not read (F1, ñ in windows-1252).
        let bytes = Self.rss("utf-8", title: Array("Ѩ Espa".utf8) + [0xF1, 0x61])
        let whole = try FeedParser().parse(Data(bytes))
        #expect(whole.title == "Ñ¨ España", "feedparser reads the whole document as windows-1252")
        #expect(whole.problem == "the document is not valid utf-8; read as windows-1252")
        // A stream cannot go back: the byte is read as windows-1252, the rest as UTF-8.
        let (feed, entries) = try await Self.stream(bytes, size: 5)
        #expect(entries.first?.title == "Ѩ España")
        #expect(feed.problem == "the document is not valid utf-8 (byte 0xF1); read leniently")
        // A file is checked whole before it is read, so it reads as the whole document.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).xml")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var titles: [String?] = []
        for try await entry in FeedParser().entries(in: handle) { titles.append(entry.title) }
        #expect(titles == ["Ñ¨ España"])
    }

    @Test func aLoneSurrogateInUTF16KeepsTheRestAligned() async throws {
        // UTF-16LE: "<rss><channel><title>a", a lone low surrogate (DC00), "b</title>…".
        var bytes: [UInt8] = [0xFF, 0xFE]
        func utf16(_ text: String) { for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] } }
        utf16("<rss><channel><title>a")
        bytes += [0x00, 0xDC]
        utf16("b</title></channel></rss>")
        // A stream keeps reading UTF-16 after it; a whole document falls back as feedparser does.
        var iterator = FeedParser().entries(in: Counted(bytes: bytes, size: 7)).makeAsyncIterator()
        while try await iterator.next() != nil {}
        #expect(iterator.feed.title == "a\u{FFFD}b")
        #expect(iterator.feed.problem == "the document is not valid utf-16le (bytes 0 DC); read leniently")
    }

    @Test func theFeedsLinkIsKnownBeforeItEnds() async throws {
        let xml = "<rss><channel><link>http://x/</link><item><title>a</title></item><item><title>b</title></item>"
        var iterator = FeedParser().entries(in: Counted(bytes: Array(xml.utf8), size: 8)).makeAsyncIterator()
        _ = try await iterator.next()
        #expect(iterator.feed.link == "http://x/")
    }

    @Test func c1ControlsReadAsWindows1252InsideRunsOfText() throws {
        // U+0082 and U+0093 are what windows-1252's ‚ and “ become when read as ISO-8859-1.
        let feed = try FeedParser().parse(
            Data("<rss><channel><title>word\u{82}word \u{93}quoted</title></channel></rss>".utf8)
        )
        #expect(feed.title == "word‚word “quoted")
    }

    @Test func aStreamInAnotherEncodingIsDecodedAsItArrives() async throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><rss><channel>".utf8)
        for number in 0..<2000 {
            bytes += Array("<item><title>\(number) caf".utf8) + [0xE9, 0x93] + Array("</title></item>".utf8)
        }
        bytes += Array("</channel></rss>".utf8)
        let chunks = Counted(bytes: bytes, size: 1024)
        var iterator = FeedParser().entries(in: chunks).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.title == "0 café“")
        // The first entry came from the first pieces, not after the whole feed was collected.
        #expect(chunks.taken.value.withLock { $0 } <= 5)
        var count = 1
        while try await iterator.next() != nil { count += 1 }
        #expect(count == 2000)
        #expect(iterator.feed.isWellFormed)
    }

    @Test func aByteOrderMarkDoesNotStopStreaming() async throws {
        let bytes =
            [0xEF, 0xBB, 0xBF] + Array("<rss><channel>".utf8)
            + Array(repeating: Array("<item><title>é</title></item>".utf8), count: 2000).joined()
            + Array("</channel></rss>".utf8)
        let chunks = Counted(bytes: bytes, size: 1024)
        var iterator = FeedParser().entries(in: chunks).makeAsyncIterator()
        #expect(try await iterator.next()?.title == "é")
        #expect(chunks.taken.value.withLock { $0 } <= 5)
    }
}

/// What the parser refuses, and how it says so.
@Suite(.loadLimited)
struct FeedErrorTests {
    @Test func documentsThatAreNotFeedsAreRefused() throws {
        let cases: [(String, String?, FeedError)] = [
            ("<!DOCTYPE html><html><body><p>Hello</p></body></html>", nil, .notAFeed("an HTML page")),
            (
                "<svg xmlns='http://www.w3.org/2000/svg'/>", nil,
                .notAFeed("an XML document whose root element is <svg>")
            ),
            (#"{"items": [1, 2]}"#, nil, .notAFeed("JSON without a JSON Feed version")),
            ("[1, 2]", "application/json", .notAFeed("JSON whose top level is not an object")),
            (
                #"{"version": "https://jsonfeed.org/version/1.1", "items": [}"#, nil,
                .notWellFormed(reason: "expected a value, found '}'", line: 1, column: 59)
            ),
        ]
        for (text, type, expected) in cases {
            #expect(throws: expected, "\(text)") { try FeedParser().parse(Data(text.utf8), contentType: type) }
        }
        #expect(FeedError.notAFeed("an HTML page").message == "The document is not a feed: it is an HTML page.")
        #expect(FeedError.notAFeed("an HTML page").shortDescription == "not_a_feed")
        #expect(
            FeedError.limitExceeded(.depth(256)).message
                == "Elements nest deeper than 256 levels (XMLLimits.maximumDepth)."
        )
        #expect(FeedError.limitExceeded(.tokenSize(1)).shortDescription == "limit_token_size")
    }

    @Test func aJSONFeedPastTheSizeLimitIsRefusedBeforeItIsRead() throws {
        let items = Array(repeating: #"{"id": "1", "title": "t"}"#, count: 100).joined(separator: ",")
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "items": [\#(items)]}"#
        let parser = FeedParser(limits: XMLLimits(maximumDocumentSize: 1000))
        #expect(throws: FeedError.limitExceeded(.documentSize(1000))) { try parser.parse(Data(json.utf8)) }
        #expect(try FeedParser().parse(Data(json.utf8)).entries.count == 100)
    }

    @Test func strayElementsAroundAFeedDoNotRefuseIt() throws {
        let documents = [
            #"<rss version="2.0"><channel><item><title>A</title></item></channel></rss><script src="x"></script>"#,
            "<b>Warning</b>: something<br />\n<rss><channel><item><title>A</title></item></channel></rss>",
            #"<entry xmlns="http://www.w3.org/2005/Atom"><title>A</title></entry>"#,
        ]
        for document in documents {
            let feed = try FeedParser().parse(Data(document.utf8))
            #expect(feed.entries.map(\.title) == ["A"], "\(document)")
        }
    }

    @Test func aJSONFeedIsKnownByItsVersionWhereverItIs() throws {
        let items = (0..<200).map { #"{"id": "\#($0)", "title": "t\#($0)"}"# }.joined(separator: ",")
        let json = #"{"items": [\#(items)], "version": "https://jsonfeed.org/version/1.1"}"#
        #expect(try FeedParser().parse(Data(json.utf8), contentType: "application/json").entries.count == 200)
    }

    @Test func entitiesOfNothingStillCountTowardTheExpansionLimit() {
        let references = String(repeating: "&z;", count: 2000)
        let uses = String(repeating: "&a;", count: 2000)
        let xml =
            #"<!DOCTYPE rss [<!ENTITY z ""><!ENTITY a "\#(references)">]><rss><channel><title>\#(uses)</title></channel></rss>"#
        #expect(throws: FeedError.limitExceeded(.entityExpansion(1 << 20))) { try FeedParser().parse(Data(xml.utf8)) }
    }

    @Test func aDeviceIsReadAsAStreamAndStopsAtALimit() async throws {
        let zeros = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
        defer { try? zeros.close() }
        let parser = FeedParser(limits: XMLLimits(maximumTokenSize: 1 << 16))
        await #expect(throws: FeedError.limitExceeded(.tokenSize(1 << 16))) {
            for try await _ in parser.entries(in: zeros) {}
        }
    }

    @Test func aMillionUndeclaredPrefixesAreOneProblem() throws {
        let elements = (0..<20_000).map { "<p\($0):x/>" }.joined()
        let feed = try FeedParser().parse(Data("<rss><channel>\(elements)</channel></rss>".utf8))
        #expect(feed.problem == "the prefix p0 is not declared")
    }
}
