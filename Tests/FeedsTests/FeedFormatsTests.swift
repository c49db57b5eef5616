import CourierTestTraits
import Feeds
import Foundation
import Testing

/// Each format into the one model, with small feeds written for the rule they check.
@Suite(.loadLimited)
struct FeedFormatsTests {
    static func parse(
        _ xml: String,
        base: String? = "http://example.test/feed.xml",
        contentType: String? = nil
    ) throws -> Feed {
        try FeedParser().parse(Data(xml.utf8), baseURL: base.flatMap(URL.init(string:)), contentType: contentType)
    }

    static func iso(_ date: Date?) -> String? {
        date.map { ISO8601DateFormatter().string(from: $0) }
    }

    @Test func atom10() throws {
        let feed = try Self.parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
              <title type="html">Dive &lt;b&gt;into&lt;/b&gt; mark</title>
              <subtitle>A &lt;em&gt;lot&lt;/em&gt; of effort</subtitle>
              <link rel="self" href="/feed.atom"/>
              <link rel="alternate" type="text/html" href="/"/>
              <updated>2005-07-31T12:29:29Z</updated>
              <entry>
                <id>tag:example.org,2003:3.2397</id>
                <title>Atom draft-07 snapshot</title>
                <link rel="alternate" href="2005/04/02/atom"/>
                <link rel="enclosure" type="audio/mpeg" length="1337" href="http://example.org/audio.mp3"/>
                <published>2003-12-13T08:29:29-04:00</published>
                <updated>2005-07-31T12:29:29Z</updated>
                <author><name>Mark Pilgrim</name><email>f8dy@example.com</email></author>
                <category term="atom"/>
                <source><title>Not this</title><link href="http://elsewhere.example/"/></source>
              </entry>
            </feed>
            """
        )
        #expect(feed.version == "atom10")
        #expect(feed.title == "Dive into mark")
        #expect(feed.subtitle == "A <em>lot</em> of effort")
        #expect(feed.link == "http://example.test/")
        #expect(feed.language == "en")
        #expect(Self.iso(feed.updated) == "2005-07-31T12:29:29Z")
        let entry = try #require(feed.entries.first)
        #expect(entry.id == "tag:example.org,2003:3.2397")
        #expect(entry.title == "Atom draft-07 snapshot")
        #expect(entry.link == "http://example.test/2005/04/02/atom")
        #expect(Self.iso(entry.published) == "2003-12-13T12:29:29Z")
        #expect(entry.authors == [Person(name: "Mark Pilgrim", email: "f8dy@example.com")])
        #expect(entry.categories == ["atom"])
        #expect(entry.enclosures == [Enclosure(url: "http://example.org/audio.mp3", type: "audio/mpeg", length: 1337)])
        #expect(feed.isWellFormed)
    }

    @Test func rss20() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel>
              <title>AT&amp;T &lt;rocks&gt;</title>
              <link>http://example.org/</link>
              <description>Plain &amp; simple</description>
              <lastBuildDate>Sat, 07 Sep 02 00:00:01 GMT</lastBuildDate>
              <image><title>Logo</title><link>http://example.org/logo</link></image>
              <item>
                <title>First &lt;b&gt;bold&lt;/b&gt;</title>
                <guid isPermaLink="false">abc-1</guid>
                <pubDate>Tue, 10 Jun 2003 04:00:00 EST</pubDate>
                <description>&lt;p&gt;Hello&lt;/p&gt;</description>
                <dc:creator>Ada</dc:creator>
                <enclosure url="/ep1.mp3" type="audio/mpeg" length="100"/>
              </item>
              <item><guid>http://example.org/2</guid></item>
            </channel>
            </rss>
            """
        )
        #expect(feed.version == "rss20")
        #expect(feed.title == "AT&T <rocks>", "text that does not look like HTML stays text")
        #expect(feed.link == "http://example.org/")
        #expect(feed.subtitle == "Plain & simple")
        #expect(Self.iso(feed.updated) == "2002-09-07T00:00:01Z")
        #expect(feed.entries.count == 2)
        #expect(feed.entries[0].title == "First bold")
        #expect(feed.entries[0].id == "abc-1")
        #expect(feed.entries[0].link == nil, "a guid that is not a permalink is not a link")
        #expect(Self.iso(feed.entries[0].published) == "2003-06-10T09:00:00Z")
        #expect(feed.entries[0].updated == nil)
        #expect(feed.entries[0].summary == "Hello")
        #expect(feed.entries[0].authors.map(\.name) == ["Ada"])
        #expect(feed.entries[0].enclosures.first?.url == "http://example.test/ep1.mp3")
        #expect(feed.entries[1].link == "http://example.org/2", "a permalink guid is the link")
    }

    @Test func rss10RDF() throws {
        let feed = try Self.parse(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:d="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="http://example.org/"><title>RDF</title><link>http://example.org/</link></channel>
              <item rdf:about="http://example.org/1"><title>One</title><d:date>2004-02-29T12:00Z</d:date></item>
            </rdf:RDF>
            """
        )
        #expect(feed.version == "rss10")
        #expect(feed.entries.first?.id == "http://example.org/1")
        #expect(feed.entries.first?.link == nil, "rdf:about is an id, not a link")
        #expect(Self.iso(feed.entries.first?.updated) == "2004-02-29T12:00:00Z", "dc matched by URI, not by prefix")
    }

    @Test func atom03() throws {
        let feed = try Self.parse(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#">
              <title mode="escaped" type="text/html">&lt;i&gt;Old&lt;/i&gt; Atom</title>
              <tagline>Tag line</tagline>
              <modified>2004-01-01T00:00:00Z</modified>
              <entry>
                <title mode="base64">RXhhbXBsZQ==</title>
                <link rel="alternate" type="text/html">http://example.org/e</link>
                <issued>2003-12-31T23:00:00-01:00</issued>
              </entry>
            </feed>
            """
        )
        #expect(feed.version == "atom03")
        #expect(feed.title == "Old Atom")
        #expect(feed.subtitle == "Tag line")
        #expect(feed.entries.first?.title == "Example")
        #expect(feed.entries.first?.link == "http://example.org/e")
        #expect(Self.iso(feed.entries.first?.published) == "2004-01-01T00:00:00Z")
    }

    @Test func jsonFeed() throws {
        let feed = try Self.parse(
            #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "JSON", "home_page_url": "https://example.org/",
             "items": [{"id": "1", "url": "/one", "title": "One", "content_html": "<p>Hi</p>",
                        "date_published": "2020-01-02T03:04:05+01:00", "authors": [{"name": "Bo"}]}]}
            """#
        )
        #expect(feed.version == "jsonfeed")
        #expect(feed.title == "JSON")
        #expect(feed.entries.first?.link == "http://example.test/one")
        #expect(feed.entries.first?.summary == "Hi")
        #expect(Self.iso(feed.entries.first?.published) == "2020-01-02T02:04:05Z")
        #expect(feed.entries.first?.authors.map(\.name) == ["Bo"])
    }

    @Test func xmlBaseIsInheritedAndOverridden() throws {
        let feed = try Self.parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://a.example/dir/">
              <link href="home"/>
              <entry xml:base="/other/"><id>one</id><link href="page"/></entry>
              <entry><link xml:base="http://b.example/" href="x"/></entry>
            </feed>
            """
        )
        #expect(feed.link == "http://a.example/dir/home")
        #expect(feed.entries[0].link == "http://a.example/other/page")
        #expect(feed.entries[0].id == "http://a.example/other/one")
        #expect(feed.entries[1].link == "http://b.example/x")
    }
}
