import CourierTestTraits
import Feeds
import Foundation
import Testing

/// `FeedHTML.sanitized`: an allow-list, links resolved and checked, nothing that runs (issue 32).
@Suite(.loadLimited)
struct FeedHTMLTests {
    static let base = URL(string: "https://example.com/blog/")

    static func clean(_ html: String, base: URL? = base) -> String {
        FeedHTML.sanitized(html, base: base)
    }

    @Test(arguments: [
        ("<script>alert(1)</script>ok", "ok"),
        ("<SCRIPT SRC=x></SCRIPT>ok", "ok"),
        ("<style>body{display:none}</style>ok", "ok"),
        ("<iframe src=https://evil.example></iframe>ok", "ok"),
        ("<svg><script>alert(1)</script></svg>ok", "ok"),
        ("<img src=x onerror=alert(1)>", #"<img src="https://example.com/blog/x">"#),
        ("<p style=\"color:red\" class=c id=i>t</p>", "<p>t</p>"),
        ("<a href=\"javascript:alert(1)\">x</a>", #"<a rel="noopener noreferrer nofollow">x</a>"#),
        ("<a href=\"JaVaScRiPt:alert(1)\">x</a>", #"<a rel="noopener noreferrer nofollow">x</a>"#),
        ("<a href=\"java&#x09;script:alert(1)\">x</a>", #"<a rel="noopener noreferrer nofollow">x</a>"#),
        ("<a href=\"&#106;avascript:alert(1)\">x</a>", #"<a rel="noopener noreferrer nofollow">x</a>"#),
        ("<a href=\" \u{1}javascript:alert(1)\">x</a>", #"<a rel="noopener noreferrer nofollow">x</a>"#),
        ("<img src=\"data:image/svg+xml,<svg onload=alert(1)>\">", "<img>"),
        ("<a href=vbscript:x>x</a>", #"<a rel="noopener noreferrer nofollow">x</a>"#),
        (
            "<a href=\"mailto:me@example.com\">m</a>",
            #"<a href="mailto:me@example.com" rel="noopener noreferrer nofollow">m</a>"#
        ),
        ("<form action=x><input name=p>t</form>", "t"),
        // A value that reads like an attribute stays a value, its quotes escaped (fuzzing found
        // the first: the harness had taken ` href="` in it for a link).
        ("<summary type=\" href=\">", #"<summary type=" href="></summary>"#),
        ("<summary type='\" href=\"javascript:x'>", #"<summary type="&quot; href=&quot;javascript:x"></summary>"#),
        ("<object data=x>fallback</object>t", "t"),
        ("<!-- <script>x</script> -->t", "t"),
        ("<![CDATA[x]]>t<?php x ?>", "t"),
        ("a < b > c & d", "a &lt; b &gt; c &amp; d"),
        ("<b>bold<i>both</b>italic?", "<b>bold<i>both</i></b>italic?"),
        ("<ul><li>one<li>two</ul>", "<ul><li>one</li><li>two</li></ul>"),
        ("<p>a<p>b<div>c</div>", "<p>a</p><p>b</p><div>c</div>"),
        ("<table><tr><td>1<td>2<tr><td>3</table>", "<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>"),
        (
            "<img src=\"http:/api/feed?url=x\"><a href=\"https:evil\">e</a>",
            #"<img><a rel="noopener noreferrer nofollow">e</a>"#
        ),
        ("<script>for(i=0;i<n;i++){}</script><p>Body</p>", "<p>Body</p>"),
        ("<script>x</SCRIPT >a", "a"),
        ("<script/>alert(1)", ""),
        ("<p>Watch <embed src=\"v.swf\"> then read on.</p><p>More</p>", "<p>Watch  then read on.</p><p>More</p>"),
        (
            "<img src=a.png alt=x \"broken><p>Rest</p>",
            #"<img src="https://example.com/blog/a.png" alt="x"><p>Rest</p>"#
        ),
        ("<!-->t<!--->u<!-- x --!>v", "tuv"),
        ("<p title='a\"b' dir=rtl title=twice>x", #"<p title="a&quot;b" dir="rtl">x</p>"#),
        (
            "<a href=\"x\" href=\"javascript:y\">x</a>",
            #"<a href="https://example.com/blog/x" rel="noopener noreferrer nofollow">x</a>"#
        ),
        ("<p>&amp;lt; &eacute; &#x1F600; &bogus;</p>", "<p>&amp;lt; é 😀 &amp;bogus;</p>"),
        (
            "<a title=\"x>y\" href=//cdn.example/p>z</a>",
            #"<a title="x&gt;y" href="https://cdn.example/p" rel="noopener noreferrer nofollow">z</a>"#
        ),
    ])
    func whatCouldRunIsGoneAndTheRestIsWellFormed(html: String, expected: String) {
        #expect(Self.clean(html) == expected)
    }

    /// A hostile base repeated by every relative link: too long a URL is dropped, and the
    /// output stops at its limit, well-formed.
    @Test func resolvedLinksAndOutputAreBounded() {
        let long = URL(string: "https://a.example/" + String(repeating: "a", count: 10_000) + "/")
        #expect(Self.clean(##"<img src="#">"##, base: long) == "<img>")
        let many = String(repeating: "<b>x</b>", count: 10_000)
        let cut = FeedHTML.sanitized("<div>" + many, base: nil, maximumLength: 100)
        #expect(cut.utf8.count < 200)
        #expect(cut.hasPrefix("<div><b>x</b>") && cut.hasSuffix("</div>"))
    }

    /// Tags past the depth limit are dropped without work: they close nothing.
    @Test(.hangGuard) func tagsPastTheDepthLimitCostNothing() {
        let deep = String(repeating: "<div>", count: 256) + String(repeating: "<p>", count: 85_000) + "end"
        let cleaned = Self.clean(deep)
        #expect(cleaned.hasPrefix(String(repeating: "<div>", count: 256) + "end"))
        #expect(
            Self.clean(#"<a href="https://trusted@evil.example/">x</a>"#)
                == #"<a rel="noopener noreferrer nofollow">x</a>"#
        )
    }

    @Test func withoutABaseRelativeURLsAreDropped() {
        #expect(
            Self.clean(#"<a href="/x">x</a><img src="y.png">"#, base: nil)
                == #"<a rel="noopener noreferrer nofollow">x</a><img>"#
        )
        #expect(
            Self.clean(#"<img src="https://a.example/y.png">"#, base: nil) == #"<img src="https://a.example/y.png">"#
        )
    }

    /// Hostile shapes are read in one pass: brackets that never close, a million open tags.
    @Test(.hangGuard) func hostileHTMLIsReadOnceAndStaysBounded() {
        let brackets = String(repeating: "<a x=\"", count: 50_000)
        #expect(Self.clean(brackets).hasPrefix("&lt;a x=&quot;"))
        let open = String(repeating: "<div>", count: 100_000)
        let cleaned = Self.clean(open)
        #expect(cleaned.components(separatedBy: "<div>").count - 1 == FeedHTML.maximumDepth)
        #expect(cleaned.hasSuffix("</div>"))
        let comments = String(repeating: "<!--", count: 50_000)
        #expect(Self.clean(comments).hasPrefix("&lt;!--"))
    }
}
