import CourierTestTraits
import Feeds
import Foundation
import Testing

/// What feed readers show besides text: pictures, podcast fields, Media RSS, and content
/// whose links are resolved and whose HTML is safe to show (issue 32).
@Suite(.loadLimited)
struct FeedMediaTests {
    static let podcast = """
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/DTDs/Podcast-1.0.dtd"
             xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
        <channel xml:base="https://pod.example/show/">
          <title>Show</title>
          <image><url>art/logo.png</url><title>Show</title><link>https://pod.example/</link></image>
          <itunes:image></itunes:image>
          <itunes:explicit>clean</itunes:explicit>
          <item>
            <title>One</title>
            <itunes:image href="art/one.jpg"/>
            <itunes:duration>1:02:03</itunes:duration>
            <itunes:episode>7</itunes:episode><itunes:season>2</itunes:season>
            <itunes:explicit>yes</itunes:explicit>
            <media:thumbnail url="thumbs/1.jpg" width="120" height="90"/>
            <media:group>
              <media:content url="https://cdn.example/1.mp4" type="video/mp4" medium="video" duration="3723"
                             fileSize="1000" width="1280" height="720"/>
            </media:group>
            <content:encoded><![CDATA[<p onclick="steal()">Listen <a href="notes/1">notes</a>
              <a href="javascript:alert(1)">x</a><script>steal()</script><img src="/i.png"></p>]]></content:encoded>
          </item>
          <item><title>Two</title><itunes:duration>90:00</itunes:duration><itunes:explicit> yes </itunes:explicit>
            <itunes:episode>-1</itunes:episode></item>
        </channel></rss>
        """

    @Test func picturesPodcastFieldsAndMediaAreRead() throws {
        let feed = try FeedParser().parse(Data(Self.podcast.utf8))
        #expect(feed.image == "https://pod.example/show/art/logo.png", "an empty itunes:image keeps the RSS image")
        #expect(feed.isExplicit == false)
        let one = try #require(feed.entries.first)
        #expect(one.image == "https://pod.example/show/art/one.jpg")
        #expect(one.duration == 3723 && one.episode == 7 && one.season == 2 && one.isExplicit == true)
        #expect(
            one.media == [
                MediaItem(kind: .thumbnail, url: "https://pod.example/show/thumbs/1.jpg", width: 120, height: 90),
                MediaItem(
                    kind: .content,
                    url: "https://cdn.example/1.mp4",
                    type: "video/mp4",
                    medium: "video",
                    width: 1280,
                    height: 720,
                    duration: 3723,
                    fileSize: 1000
                ),
            ]
        )
        let two = try #require(feed.entries.last)
        #expect(two.duration == 5400 && two.isExplicit == nil && two.episode == nil)
        #expect(one.title == "One" && two.title == "Two", "the image's title is not the feed's or an entry's")
        #expect(feed.title == "Show")
    }

    @Test func contentIsSafeToShowWithItsLinksResolved() throws {
        let feed = try FeedParser().parse(Data(Self.podcast.utf8))
        let one = try #require(feed.entries.first)
        #expect(one.content?.contains("<script>") == true, "the content as given")
        #expect(one.contentBase == "https://pod.example/show/")
        let safe = try #require(one.safeContent)
        #expect(
            safe
                == #"<p>Listen <a href="https://pod.example/show/notes/1" rel="noopener noreferrer nofollow">notes</a>"#
                + "\n      " + #"<a rel="noopener noreferrer nofollow">x</a><img src="https://pod.example/i.png"></p>"#
        )
    }

    @Test func atomLogoIconAndXHTMLContentKeepTheirMarkup() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/">
              <title>Blog</title><logo>/logo.svg</logo><icon>favicon.ico</icon>
              <entry><title>Post</title>
                <content type="xhtml" xml:base="posts/"><div xmlns="http://www.w3.org/1999/xhtml">
                  A &lt;b&gt; is <b style="x">bold</b>, see <a href="two" onmouseover="x()">two</a>.
                </div></content></entry>
              <entry><title>Plain</title><content type="text">1 &lt; 2 &amp; &lt;b&gt;</content></entry>
            </feed>
            """
        let feed = try FeedParser().parse(Data(atom.utf8))
        #expect(feed.image == "https://blog.example/logo.svg" && feed.icon == "https://blog.example/favicon.ico")
        let post = try #require(feed.entries.first)
        #expect(post.contentType == "xhtml")
        #expect(post.summary == "A <b> is bold, see two.")
        let safe = try #require(post.safeContent)
        #expect(safe.contains("A &lt;b&gt; is <b>bold</b>, see <a href=\"https://blog.example/posts/two\""))
        #expect(!safe.contains("style") && !safe.contains("onmouseover"))
        let plain = try #require(feed.entries.last)
        #expect(plain.safeContent == "1 &lt; 2 &amp; &lt;b&gt;", "text content is escaped, not read as HTML")
    }

    /// Atom content without a type is text; an empty or non-web picture is no picture; RSS
    /// 1.0's image stands beside its channel.
    @Test func theEdgesOfContentAndPictures() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
              <logo>javascript:alert(1)</logo><icon>  </icon>
              <entry><title>T</title><itunes:image href=""/><content>Use &lt;b&gt; for bold</content></entry>
            </feed>
            """
        let feed = try FeedParser().parse(Data(atom.utf8), baseURL: URL(string: "https://a.example/feed.xml"))
        #expect(feed.image == nil && feed.icon == nil)
        #expect(feed.entries.first?.image == nil, "an empty href is not the feed's own address")
        #expect(feed.entries.first?.contentType == "text")
        #expect(feed.entries.first?.safeContent == "Use &lt;b&gt; for bold")
        let rss10 = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
              <channel rdf:about="https://r.example/"><title>R</title></channel>
              <image rdf:about="https://r.example/logo.png"><url>https://r.example/logo.png</url></image>
            </rdf:RDF>
            """
        #expect(try FeedParser().parse(Data(rss10.utf8)).image == "https://r.example/logo.png")
    }

    @Test func jsonFeedPicturesAreRead() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "icon": "big.png", "favicon": "/f.ico",
             "items": [{"id": "1", "image": "i/1.png", "content_html": "<p>Hi <script>x</script></p>"}]}
            """
        let feed = try FeedParser().parse(Data(json.utf8), baseURL: URL(string: "https://j.example/feed.json"))
        #expect(feed.image == "https://j.example/big.png" && feed.icon == "https://j.example/f.ico")
        #expect(feed.entries.first?.image == "https://j.example/i/1.png")
        #expect(feed.entries.first?.safeContent == "<p>Hi </p>")
    }
}
