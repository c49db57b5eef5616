import CourierCassettes
import CourierTestTraits
import Foundation
import Testing

/// `RecordedOrigins`: a recording's origins replaced by the replaying one, and nothing else (issue 32).
@Suite(.loadLimited)
struct RecordedOriginsTests {
    static let cassette = Cassette(interactions: [
        .init(
            request: .init(method: "GET", url: "http://127.0.0.1:9400/search?term=king"),
            response: .init(status: 200)
        ),
        .init(request: .init(method: "GET", url: "HTTPS://Store.Example/a"), response: .init(status: 200)),
        .init(request: .init(method: "GET", url: "http://127.0.0.1:9400/artwork/1.png"), response: .init(status: 200)),
        .init(request: .init(method: "GET", url: "ftp://files.example/x"), response: .init(status: 200)),
        .init(request: .init(method: "GET", url: "http://REDACTED@api.example/me"), response: .init(status: 200)),
    ])
    static let origins = RecordedOrigins(cassette)
    static let replay = "http://127.0.0.1:18700"

    @Test func theOriginsAreTheRequestsOnesInOrderOnce() {
        #expect(Self.origins.origins == ["http://127.0.0.1:9400", "https://store.example", "http://api.example"])
    }

    @Test(arguments: [
        ("http://127.0.0.1:9400/artwork/1.png", "http://127.0.0.1:18700/artwork/1.png"),
        (#"{"a":"http:\/\/127.0.0.1:9400\/artwork\/1.png"}"#, #"{"a":"http:\/\/127.0.0.1:18700\/artwork\/1.png"}"#),
        ("<https://store.example/next>; rel=next", "<http://127.0.0.1:18700/next>; rel=next"),
        ("see http://127.0.0.1:9400.", "see http://127.0.0.1:18700."),
        ("http://127.0.0.1:9400?q http://127.0.0.1:9400#f", "http://127.0.0.1:18700?q http://127.0.0.1:18700#f"),
        ("https://STORE.example\"", "http://127.0.0.1:18700\""),
        ("HTTP://127.0.0.1:9400/x", "http://127.0.0.1:18700/x"),
        ("(http://api.example/me)", "(http://127.0.0.1:18700/me)"),
    ])
    func everyWholeRecordedOriginIsReplaced(text: String, expected: String) {
        #expect(Self.origins.rewriting(text, to: Self.replay) == expected)
    }

    @Test(arguments: [
        "http://127.0.0.1:94001/x",  // another port
        "http://127.0.0.1:9400.evil.test/x",  // another host
        "http://127.0.0.1:9400@evil.test/x",  // userinfo
        "https://127.0.0.1:9400/x",  // another scheme
        "http://store.example/x",  // recorded over https only
        "ftp://files.example/x",
        "git+http://127.0.0.1:9400/x",  // another scheme's address
        "xhttp://127.0.0.1:9400/x",
        "http:/127.0.0.1:9400/x",
        "http://",
        "htt",
        "",
    ])
    func otherOriginsAndNearMissesStay(text: String) {
        #expect(Self.origins.rewriting(text, to: Self.replay) == text)
    }

    @Test func headersAndTextBodiesAreRewrittenOtherBodiesAreNot() {
        let text = Cassette.Response(
            status: 302,
            headers: [
                ["Location", "http://127.0.0.1:9400/moved"], ["X-Odd"], ["Content-Type", "text/html; charset=utf-8"],
            ],
            body: .init(Data("at http://127.0.0.1:9400/".utf8))
        )
        let rewritten = Self.origins.rewriting(text, to: Self.replay)
        #expect(rewritten.headers[0] == ["Location", "http://127.0.0.1:18700/moved"])
        #expect(rewritten.body?.data == Data("at http://127.0.0.1:18700/".utf8))
        for type in ["application/json", "application/problem+json", "application/atom+xml", "text/javascript"] {
            let typed = Cassette.Response(status: 200, headers: [["Content-Type", type]], body: text.body)
            #expect(Self.origins.rewriting(typed, to: Self.replay).body == rewritten.body, "\(type)")
        }
        // Bytes whose length matters, or that are not the text itself, stay as recorded.
        let ascii = Data("\u{0A}\u{15}http://127.0.0.1:9400".utf8)
        let kept: [[[String]]] = [
            [["Content-Type", "application/x-protobuf"]], [],
            [["Content-Type", "text/plain"], ["Content-Encoding", "gzip"]],
        ]
        for headers in kept {
            let response = Cassette.Response(status: 200, headers: headers, body: .init(ascii))
            #expect(Self.origins.rewriting(response, to: Self.replay).body?.data == ascii, "\(headers)")
        }
        let part = Cassette.Response(status: 206, headers: [["Content-Type", "text/plain"]], body: .init(ascii))
        #expect(Self.origins.rewriting(part, to: Self.replay).body?.data == ascii)
        let image = Cassette.Response(
            status: 200,
            headers: [["Content-Type", "text/plain"]],
            body: .init(Data([0x89, 0x50, 0xFF]) + Data("http://127.0.0.1:9400".utf8))
        )
        #expect(Self.origins.rewriting(image, to: Self.replay) == image, "not UTF-8")
    }

    /// One pass, whatever the text holds: a megabyte of near-misses and a long authority.
    @Test(.hangGuard) func hostileTextIsReadOnce() {
        let nearMisses = String(repeating: "http://127.0.0.1:940", count: 50_000)
        #expect(Self.origins.rewriting(nearMisses, to: Self.replay) == nearMisses)
        let long = "http://" + String(repeating: "a", count: 1_000_000)
        #expect(Self.origins.rewriting(long, to: Self.replay) == long)
        let escapes = String(repeating: #"http:\/\/"#, count: 100_000)
        #expect(Self.origins.rewriting(escapes, to: Self.replay) == escapes)
    }

    @Test func aCassetteWithoutHTTPRequestsChangesNothing() {
        let none = RecordedOrigins(Cassette())
        #expect(none.origins.isEmpty)
        #expect(none.rewriting("http://127.0.0.1:9400/", to: Self.replay) == "http://127.0.0.1:9400/")
    }
}
