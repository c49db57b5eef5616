import CourierTestTraits
import Foundation
import Testing

/// Text from the network or a file reaches the terminal escaped: a title carrying a terminal
/// command (set the window title, clear the screen) is shown, not run. The hostile answers are
/// served by `courier replay` from a cassette written here; the feed is a local file.
@Suite("Terminal escaping", .loadLimited)
struct TerminalEscapingTests {
    /// Sets the terminal's window title, then clears the screen.
    static let setTitle = "\u{1B}]0;pwned\u{07}"
    static let clearScreen = "\u{1B}[2J"
    static let shownTitle = "\\e]0;pwned\\x07"
    static let shownClear = "\\e[2J"

    /// Checks that `output` holds no raw escape, BEL or bidi override and shows `expected`.
    private static func expectEscaped(
        _ output: String,
        showing expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for raw in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"] {
            #expect(
                !output.contains(raw),
                "raw U+\(String(raw.unicodeScalars.first!.value, radix: 16))",
                sourceLocation: sourceLocation
            )
        }
        for text in expected {
            #expect(output.contains(text), "\(output)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFeedFileShowsItsTitlesEscaped() async throws {
        // JSON escapes: the file holds ESC, BEL, a C1 CSI and a right-to-left override.
        let feed = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "News \u001b]0;pwned\u0007", "items": [
              {"id": "1", "title": "Clear \u001b[2Jnow \u202egnp.exe", "url": "https://example.org/\u009b1",
               "date_published": "2026-01-02T00:00:00Z"},
              {"id": "2", "title": "東京 🇫🇷 Côte d'Ivoire", "url": "https://example.org/2"}
            ]}
            """#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString).json")
        try Data(feed.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let list = try await Courier.run("feed", file.path)
        #expect(list.status == 0)
        // The title column is 60 cells wide: 東京 and the flag take two cells each.
        let clear = "Clear \(Self.shownClear)now \\u{202E}gnp.exe"
        #expect(
            list.stdout == """
                News \(Self.shownTitle)
                DATE        TITLE\(String(repeating: " ", count: 55))  LINK
                2026-01-02  \(clear.padding(toLength: 60, withPad: " ", startingAt: 0))  https://example.org/\\x9b1
                            東京 🇫🇷 Côte d'Ivoire\(String(repeating: " ", count: 39))  https://example.org/2

                """
        )
        // JSON escapes for itself: the text is kept, exactly.
        let json = try await Courier.run("feed", file.path, "--json")
        #expect(json.stdout.contains(#""title": "News \u001b]0;pwned\u0007""#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "News \(Self.setTitle)")
        // What JSON leaves raw but a terminal acts on (C1, bidi) is escaped as JSON too.
        #expect(json.stdout.contains(#"now \u202egnp.exe"#))
        #expect(json.stdout.contains(#"https://example.org/\u009b1"#))
        #expect(!json.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.first?["title"] as? String == "Clear \u{1B}[2Jnow \u{202E}gnp.exe")
    }

    // MARK: - Answers from a server

    /// A recorded exchange for `courier replay`: `GET path` answered with `status`, `headers`
    /// and `body`.
    private static func interaction(
        _ path: String,
        status: Int = 200,
        headers: [[String]] = [["Content-Type", "application/json"]],
        body: Any
    ) throws -> [String: Any] {
        let text =
            if let body = body as? String { body } else {
                String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            }
        return [
            "request": ["method": "GET", "url": "http://127.0.0.1\(path)", "headers": [[String]]()],
            "response": ["status": status, "headers": headers, "body": text],
        ]
    }

    /// `courier replay` serving hostile answers for every command that shows a server's text.
    private static func withHostileServer(_ body: (String) async throws -> Void) async throws {
        let interactions = [
            try interaction(
                "/search?term=king&limit=50",
                body: [
                    "resultCount": 1,
                    "results": [
                        [
                            "wrapperType": "track", "kind": "song", "trackName": "Evil \(setTitle)",
                            "artistName": "\(clearScreen)Artist", "primaryGenreName": "Rock\u{202E}",
                            "trackPrice": 0,
                        ]
                    ],
                ]
            ),
            try interaction(
                "/3/movie/top_rated?page=1",
                body: [
                    "page": 1, "total_pages": 1, "total_results": 1,
                    "results": [
                        [
                            "id": 129, "title": "Evil \(setTitle)", "release_date": "2001-07-20",
                            "vote_average": 8.5, "vote_count": 10, "popularity": 95.0,
                        ]
                    ],
                ]
            ),
            try interaction(
                "/3/movie/129",
                body: [
                    "id": 129, "title": "Evil \(setTitle)", "original_title": "Evil", "release_date": "2001-07-20",
                    "overview": "\(clearScreen)Gone.", "tagline": "Line one\nline two", "vote_average": 8.5,
                    "vote_count": 10, "popularity": 95.0, "genres": [["id": 1, "name": "Drama\u{9B}"]],
                ]
            ),
            try interaction(
                "/3/movie/7",
                status: 404,
                body: ["status_code": 34, "status_message": "\(clearScreen)Not here \(setTitle) \u{202E}"]
            ),
            try interaction(
                "/catalog?q=&limit=50",
                headers: [["Content-Type", "application/json"], ["X-Total-Count", "1"]],
                body: [["title": "Evil \(setTitle)", "author": "\(clearScreen)Anonymous", "year": -800]]
            ),
            try interaction(
                "/headers",
                headers: [["Content-Type", "text/plain"], ["X-Title", "Evil \u{9B}31m txt\u{202E}gnp.exe"]],
                body: "body \(clearScreen)as sent"
            ),
            try interaction(
                "/fail",
                status: 500,
                headers: [["Content-Type", "text/plain"]],
                body: "\(clearScreen)database \(setTitle)unavailable \u{202E}gnp.exe"
            ),
        ]
        let cassette = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hostile-\(UUID().uuidString).json"
        )
        try JSONSerialization.data(withJSONObject: ["version": 1, "interactions": interactions]).write(to: cassette)
        defer { try? FileManager.default.removeItem(at: cassette) }
        let replay = try await CourierService.start(command: ["replay", cassette.path, "--port", "0"])
        try await body(replay.url.absoluteString)
        #expect(await replay.stop(with: SIGINT).status == 0)
    }

    @Test func serversTextIsEscapedInTablesAndMessages() async throws {
        try await Self.withHostileServer { service in
            let store = try await Courier.run("store", "king", "--service", service)
            #expect(store.status == 0, "\(store.stderr)")
            Self.expectEscaped(
                store.stdout,
                showing: ["Evil \(Self.shownTitle)", "\(Self.shownClear)Artist", "Rock\\u{202E}"]
            )

            let chart = try await Courier.run("movies", "top-rated", "--service", service)
            #expect(chart.status == 0, "\(chart.stderr)")
            Self.expectEscaped(chart.stdout, showing: ["Evil \(Self.shownTitle)"])

            let details = try await Courier.run("movies", "show", "129", "--service", service)
            #expect(details.status == 0, "\(details.stderr)")
            Self.expectEscaped(
                details.stdout,
                showing: ["Evil \(Self.shownTitle) (2001)", "\(Self.shownClear)Gone.", "Drama\\x9b"]
            )
            #expect(details.stdout.contains("Line one\nline two"), "plain output keeps its lines")

            // The engine already drops control characters from a quoted body; no raw one gets through either way.
            let missing = try await Courier.run("movies", "show", "7", "--service", service)
            #expect(missing.status == 7)
            Self.expectEscaped(missing.stderr, showing: ["Not here", "\\u{202E}"])

            let books = try await Courier.run("catalog", "--service", service)
            #expect(books.status == 0, "\(books.stderr)")
            Self.expectEscaped(
                books.stdout,
                showing: ["Evil \(Self.shownTitle)", "\(Self.shownClear)Anonymous", "800 BC"]
            )

            let failed = try await Courier.run("get", service + "/fail")
            #expect(failed.status == 5)
            Self.expectEscaped(
                failed.stderr,
                showing: ["The server said: ", "database", "unavailable \\u{202E}gnp.exe"]
            )
        }
    }

    @Test func headerFieldsAreEscapedAndTheBodyIsNot() async throws {
        try await Self.withHostileServer { service in
            let included = try await Courier.run("get", service + "/headers", "--include")
            #expect(included.status == 0, "\(included.stderr)")
            let (head, body) = try #require(
                included.stdout.split(separator: "\n\n", maxSplits: 1).first.map { head in
                    (String(head), String(included.stdout.dropFirst(head.count + 2)))
                }
            )
            // A field value cannot carry C0 controls (HTTP types turn them into spaces), but C1 controls
            // and bidi overrides travel as UTF-8.
            Self.expectEscaped(head, showing: ["X-Title: Evil \\x9b31m txt\\u{202E}gnp.exe"])
            #expect(body == "body \(Self.clearScreen)as sent", "the body is written as received, as curl does")

            let verbose = try await Courier.run("get", service + "/headers", "--verbose")
            #expect(verbose.status == 0)
            Self.expectEscaped(verbose.stderr, showing: ["X-Title: Evil \\x9b31m txt\\u{202E}gnp.exe"])
        }
    }
}
