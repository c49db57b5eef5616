import CourierTestTraits
import Feeds
import Foundation
import Testing

/// Dates, text, encodings and ill-formed documents.
@Suite(.loadLimited)
struct FeedRulesTests {
    private func updated(_ text: String) throws -> String? {
        let feed = try FeedParser().parse(
            Data("<rss><channel><lastBuildDate>\(text)</lastBuildDate></channel></rss>".utf8)
        )
        return FeedFormatsTests.iso(feed.updated)
    }

    @Test(
        arguments: [
            ("Sat, 07 Sep 2002 00:00:01 GMT", "2002-09-07T00:00:01Z"),
            ("07 Sep 02 00:00 +0200", "2002-09-06T22:00:00Z"),
            ("Thu, 01 Jan 98 12:00:00 PDT", "1998-01-01T19:00:00Z"),
            ("Sat, 7 Sep 2002 9:01:02 -0500", "2002-09-07T14:01:02Z"),
            ("2003-12-13T18:30:02Z", "2003-12-13T18:30:02Z"),
            ("2003-12-13T18:30:02.25+01:00", "2003-12-13T17:30:02Z"),
            ("2003-12-13", "2003-12-13T00:00:00Z"),
            ("2003-12", "2003-12-01T00:00:00Z"),
            ("2003", "2003-01-01T00:00:00Z"),
            ("20031213T183002Z", "2003-12-13T18:30:02Z"),
        ]
    )
    func datesOfEveryCommonForm(_ text: String, _ expected: String) throws {
        #expect(try updated(text) == expected)
    }

    /// FeedRules' precedence: the first title even if empty, the first media:title with text,
    /// the last subtitle, every category.
    @Test func eachFieldTakesTheOccurrenceItsRuleSays() throws {
        let media = "xmlns:media='http://search.yahoo.com/mrss/'"
        let feed = try FeedParser().parse(
            Data(
                """
                <rss \(media)><channel><description>a</description><description>b</description>
                <item><title></title><title>second</title></item>
                <item><media:title></media:title><media:title>M</media:title><media:title>N</media:title>
                <category>x</category><category>y</category></item>
                </channel></rss>
                """.utf8
            )
        )
        #expect(feed.subtitle == "b")
        #expect(feed.entries.map(\.title) == [nil, "M"])
        #expect(feed.entries.last?.categories == ["x", "y"])
    }

    @Test func unreadableDatesAreNil() throws {
        #expect(try updated("yesterday") == nil)
        #expect(try updated("2003-13-45") == nil)
    }

    @Test func textConstructsFollowTheirType() throws {
        let feed = try FeedParser().parse(
            Data(
                """
                <feed xmlns="http://www.w3.org/2005/Atom">
                  <entry><title type="text">&lt;b&gt; stays</title></entry>
                  <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">An <b>XHTML</b>   title</div></title></entry>
                  <entry><title type="html"><![CDATA[<script>x()</script>Safe &amp; sound]]></title></entry>
                </feed>
                """.utf8
            )
        )
        #expect(feed.entries.map(\.title) == ["<b> stays", "An XHTML title", "Safe & sound"])
    }

    @Test func encodingsFromTheBOMTheDeclarationAndHTTP() throws {
        let text = "<rss><channel><title>Café</title></channel></rss>"
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(text.data(using: .utf16LittleEndian) ?? Data())
        let fromBOM = try FeedParser().parse(utf16)
        #expect(fromBOM.title == "Café")
        #expect(fromBOM.isWellFormed)

        let latin = "<?xml version=\"1.0\" encoding=\"windows-1252\"?>" + text
        let declared = try FeedParser().parse(latin.data(using: .windowsCP1252) ?? Data())
        #expect(declared.title == "Café")
        #expect(declared.isWellFormed)

        let overridden = try FeedParser().parse(
            latin.data(using: .windowsCP1252) ?? Data(),
            contentType: "application/xml; charset=iso-8859-1"
        )
        #expect(overridden.title == "Café")
        #expect(!overridden.isWellFormed, "an HTTP charset that overrides the declaration is noted")

        let asciiByDefault = try FeedParser().parse(Data(text.utf8), contentType: "text/xml")
        #expect(!asciiByDefault.isWellFormed, "text/xml without a charset is US-ASCII (RFC 3023)")
        #expect(asciiByDefault.title == "Café", "then UTF-8 reads it")
    }

    @Test func illFormedFeedsAreReadLeniently() throws {
        let feed = try FeedParser().parse(
            Data(
                """
                <rss version="2.0"><channel><title>Tom & Jerry &nbsp;&copy;</title>
                <item><title>One</title></item>
                <item><title>Two</title>
                """.utf8
            )
        )
        #expect(feed.title == "Tom & Jerry \u{A0}©")
        #expect(feed.entries.map(\.title) == ["One", "Two"], "a truncated entry is kept")
        #expect(!feed.isWellFormed)
        #expect(feed.problem == "a bare '&'")
    }
}
