import Courier
import CourierAppFixture
import CourierImages
import CourierTestServer
import CourierTestTraits
import Favorites
import Foundation
import GitWire
import HTTPTypes
import Synchronization
import Testing

/// The app in real Chromium, driven over WebDriver, against loopback stand-ins. Every wait is
/// for an event: a request the stand-in saw, a client it saw leave, a change in the page.
@Suite(.loadLimited, .serialized, .enabled(if: WebDriver.isAvailable, "needs Debian's chromium and chromium-driver"))
struct AppBrowserTests {
    @Test func everyKeystrokeSupersedesTheSearchInFlightEndToEnd() async throws {
        try await AppFixture.withApp { app in
            let events = app.server.events
            await events.hold(["search:s", "search:st", "search:ste"])
            try await WebDriver.withBrowser { browser in
                try await browser.open(app.page("store"))
                try await browser.type("s", into: "#store-query")
                try await events.waitForHit("search:s")
                try await browser.type("t", into: "#store-query")
                try await events.waitForHit("search:st")
                try await events.waitForDisconnect("search:s")
                try await browser.type("e", into: "#store-query")
                try await events.waitForHit("search:ste")
                try await events.waitForDisconnect("search:st")
                try await browser.type("ph", into: "#store-query")
                try await events.waitForDisconnect("search:ste")
                try await browser.wait(
                    until: "document.getElementById('store-status').textContent.startsWith('16 results.')"
                )
                let names = try await browser.script(
                    "return [...document.querySelectorAll('#store-results .primary')].map(e => e.textContent)"
                )
                #expect(names.arrayValue?.count == 32, "a name and a price for each of the 16 results")
                #expect(await events.hitCount("search:steph") == 1)
            }
        }
    }

    /// Typing waits for a pause before it searches; Enter and a change of category search at
    /// once. The page's typing timer is held (``holdTimers(_:)``), so the pause is the test's.
    @Test func aSearchWaitsForAPauseInTheTypingAndEnterSearchesAtOnce() async throws {
        try await AppFixture.withApp { app in
            let events = app.server.events
            try await WebDriver.withBrowser { browser in
                try await browser.open(app.page("store"))
                try await Self.holdTimers([250], in: browser)
                try await browser.type("stephen king", into: "#store-query")
                try await browser.wait(until: "window.courierHeldTimers().length === 1")
                for typed in ["s", "st", "stephen", "stephen kin", "stephen king"] {
                    #expect(await events.hitCount("search:\(typed)") == 0, "nothing is sent while typing")
                }
                #expect(try await Self.fireTimers(250, in: browser) == 1)
                try await events.waitForHit("search:stephen king")
                try await browser.wait(
                    until: "/^\\d+ results?\\./.test(document.getElementById('store-status').textContent)"
                )

                // Enter searches without waiting, and so does a change of category.
                try await browser.script("document.getElementById('store-query').value = ''")
                try await browser.type("king\u{E007}", into: "#store-query")
                try await events.waitForHit("search:king")
                try await browser.click("input[name=store-category][value=ebook]")
                try await events.waitForHit("search:king", count: 2)
                #expect(await events.queries(for: "search").last?.contains("entity=ebook") == true)
                #expect(await events.hitCount("search:stephen king") == 1)
            }
        }
    }

    /// The store refusing searches is a pause the status line tells of, not an error; nothing
    /// is sent until it ends, whatever is typed meanwhile.
    @Test func aRefusingStoreIsAPauseTheStatusLineTellsOf() async throws {
        try await AppFixture.withApp { app in
            let events = app.server.events
            try await WebDriver.withBrowser { browser in
                try await browser.open(app.page("store"))
                try await Self.holdTimers([250, 45_000], in: browser)
                try await browser.type("rate:429:45\u{E007}", into: "#store-query")
                try await browser.wait(
                    until: """
                        document.getElementById('store-status').textContent.startsWith('The store asks for a pause') && \
                        !document.getElementById('store-status').classList.contains('error')
                        """
                )
                let status = try await browser.script("return document.getElementById('store-status').textContent")
                #expect(status.stringValue?.hasSuffix("searching again in 45 s.") == true, "\(status)")
                try await browser.type("x", into: "#store-query")
                #expect(try await Self.fireTimers(250, in: browser) == 1)
                try await browser.wait(
                    until:
                        "document.getElementById('store-status').textContent.startsWith('The store asks for a pause')"
                )
                #expect(await events.hitCount("search:rate:429:45") == 1)
                #expect(await events.hitCount("search:rate:429:45x") == 0, "nothing is sent during the pause")
            }
        }
    }

    @Test func artworkIsDownloadedOncePerURLAndEveryImageIsShown() async throws {
        try await AppFixture.withApp { app in
            try await WebDriver.withBrowser(height: 3200) { browser in
                try await browser.open(app.page("store"))
                try await browser.type("grid:30:20:0", into: "#store-query")
                try await browser.wait(
                    until: """
                        document.querySelectorAll('#store-results img').length === 30 && \
                        [...document.querySelectorAll('#store-results img')].every(i => i.complete && i.naturalWidth > 0)
                        """
                )
            }
            for image in 0..<20 {
                #expect(await app.server.events.hitCount("artwork:grid\(image)-60.png") == 1, "grid\(image)")
            }
        }
    }

    @Test func aRowScrolledAwayCancelsItsArtworkDownload() async throws {
        try await AppFixture.withApp { app in
            let events = app.server.events
            await events.hold(["artwork:grid0-60.png"])
            try await WebDriver.withBrowser(height: 700) { browser in
                try await browser.open(app.page("store"))
                try await browser.type("grid:60:60:0", into: "#store-query")
                try await events.waitForHit("artwork-request:grid0-60.png")
                #expect(app.artwork.loadsInFlight >= 1)
                try await browser.script("window.scrollTo(0, document.body.scrollHeight)")
                try await events.waitForDisconnect("artwork:grid0-60.png")
            }
        }
    }

    @Test func aFavouriteShowsAtOnceAndItsRatingArrivesLive() async throws {
        try await AppFixture.withApp { app in
            let events = app.server.events
            await events.hold(["tmdb-search:Spirited Away"])
            try await WebDriver.withBrowser { browser in
                try await browser.open(app.page("movies"))
                try await browser.type("Anna", into: "#member-name")
                try await browser.click("#member-form button[type=submit]")
                try await browser.wait(until: "!document.getElementById('favorite-title').disabled")
                try await browser.type("Spirited Away", into: "#favorite-title")
                try await browser.click("#favorite-add")
                try await browser.wait(until: Self.row("Spirited Away", showing: "pending"))
                await events.release("tmdb-search:Spirited Away")
                try await browser.wait(until: Self.row("Spirited Away", showing: "popularity"))

                // Another process adds one: it appears without a reload.
                let added = try await Self.courier(
                    [
                        "movies", "add", "--member", "Anna", "Amélie", "--database", app.favorites.location.path,
                        "--service", app.server.baseURL.absoluteString,
                    ],
                    environment: ["TMDB_ACCESS_TOKEN": TMDBRoutes.accessToken]
                )
                #expect(added.status == 0, "\(added.stderr)")
                try await browser.wait(until: Self.row("Amélie", showing: "popularity"))

                // TMDB's own message is shown for a lookup that failed.
                try await browser.type("server-error", into: "#favorite-title")
                try await browser.click("#favorite-add")
                try await browser.wait(until: Self.row("server-error", showing: "Internal error: Something went wrong"))
            }
        }
    }

    @Test func feedEntriesAppearWhileTheFeedIsStillArriving() async throws {
        try await AppFixture.withApp { app in
            let items = (1...6).map { "<item><title>Entry \($0)</title><link>https://example.com/\($0)</link></item>" }
            let first =
                "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Held feed</title>" + items[0..<3].joined()
            let rest = items[3...].joined() + "</channel></rss>"
            var components = URLComponents(url: app.server.url("/stream/held/feed"), resolvingAgainstBaseURL: false)
            components?.queryItems = [
                URLQueryItem(name: "first", value: first), URLQueryItem(name: "rest", value: rest),
            ]
            let feedURL = try #require(components?.url)
            try await WebDriver.withBrowser { browser in
                try await browser.open(app.page("feed"))
                try await browser.type(feedURL.absoluteString, into: "#feed-url")
                try await browser.click("#feed-form button[type=submit]")
                try await browser.wait(until: "document.querySelectorAll('#feed-entries li').length === 3")
                #expect(try await browser.text("#feed-status").hasPrefix("Reading…"))
                await app.server.events.release("feed")
                try await browser.wait(
                    until: "document.getElementById('feed-status').textContent.startsWith('6 entries from Held feed.')"
                )
            }
        }
    }

    /// An entry's content is shown on request, sanitized: links absolute, nothing that runs
    /// (issue 32).
    @Test func entryContentIsShownSafely() async throws {
        try await AppFixture.withApp { app in
            let content =
                #"<p onclick="window.pwned = 1">Read <a href="notes/1">the notes</a>"#
                + #"<script>window.pwned = 2</script><img src="x" onerror="window.pwned = 3"></p>"#
            let document = """
                <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
                <channel xml:base="https://pod.example/show/"><title>Show</title>
                <item><title>One</title><content:encoded><![CDATA[\(content)]]></content:encoded></item>
                </channel></rss>
                """
            var components = URLComponents(url: app.server.url("/stream/held/feed"), resolvingAgainstBaseURL: false)
            components?.queryItems = [
                URLQueryItem(name: "first", value: document), URLQueryItem(name: "rest", value: ""),
            ]
            let feedURL = try #require(components?.url)
            await app.server.events.release("feed")
            try await WebDriver.withBrowser { browser in
                try await browser.open(app.page("feed"))
                try await browser.type(feedURL.absoluteString, into: "#feed-url")
                try await browser.click("#feed-form button[type=submit]")
                try await browser.wait(until: "document.querySelector('#feed-entries details.content') !== null")
                try await browser.click("#feed-entries details.content summary")
                try await browser.wait(until: "document.querySelector('.content-body a') !== null")
                let shown = try await browser.script(
                    """
                    const body = document.querySelector('.content-body');
                    const link = body.querySelector('a');
                    return [link.href, link.target, body.querySelectorAll('script, [onclick], [onerror]').length,
                            String(window.pwned), body.textContent];
                    """
                )
                #expect(shown.arrayValue?[0].stringValue == "https://pod.example/show/notes/1")
                #expect(shown.arrayValue?[1].stringValue == "_blank")
                #expect(shown.arrayValue?[2].intValue == 0)
                #expect(shown.arrayValue?[3].stringValue == "undefined")
                #expect(shown.arrayValue?[4].stringValue == "Read the notes")
            }
        }
    }

    @Test func refsAppearWhileTheServerIsStillSending() async throws {
        let more = DispatchSemaphore(value: 0)
        let calls = Counter()
        let objectID = String(repeating: "c0", count: 20)
        let git = try HostileGitServer { () -> [UInt8]? in
            switch calls.next() {
            case 0:
                return Self.packet("\(objectID) HEAD\0multi_ack symref=HEAD:refs/heads/main agent=git/2\n")
                    + Self.packet("\(objectID) refs/heads/main\n") + Self.packet("\(objectID) refs/heads/next\n")
            case 1:
                _ = more.wait(timeout: .now() + 60)
                return Self.packet("\(objectID) refs/tags/v1\n") + Array("0000".utf8)
            default:
                return nil
            }
        }
        try await AppFixture.withApp { app in
            try await WebDriver.withBrowser { browser in
                try await browser.open(app.page("refs"))
                try await browser.type(git.url("project.git"), into: "#refs-url")
                try await browser.click("#refs-form button[type=submit]")
                try await browser.wait(until: "document.querySelectorAll('#refs-list li').length === 3")
                #expect(try await browser.text("#refs-status").hasPrefix("Receiving…"))
                more.signal()
                try await browser.wait(
                    until: "document.getElementById('refs-status').textContent === '4 refs. HEAD → refs/heads/main'"
                )
                // The example needs no address and no network: the app serves it itself.
                try await browser.click("#refs-example")
                try await browser.wait(
                    until: "document.getElementById('refs-status').textContent === '12 refs. HEAD → refs/heads/main'"
                )
                #expect(try await browser.text("#refs-list li:last-child").contains("refs/tags/v2.0.0-beta.1"))
            }
        }
    }

    @Test func aPageOfAnotherOriginCannotChangeAnything() async throws {
        try await AppFixture.withApp { app in
            try await WebDriver.withBrowser { browser in
                // The app's page first, so the browser holds its cookie; then another origin.
                try await browser.open(app.url)
                try await browser.open(app.server.url("/html"))
                // `//api/family` reaches the same handler as `/api/family`: the guard must see it.
                let targets = ["/api/family", "//api/family"].map { JSONValue.string(app.url.absoluteString + $0) }
                let outcome = try await browser.asyncScript(
                    """
                    const done = arguments[arguments.length - 1];
                    const send = (target) => fetch(target, { method: "POST", mode: "no-cors", credentials: "include",
                      headers: { "Content-Type": "text/plain" }, body: '{"name":"Mallory"}' });
                    Promise.allSettled([send(arguments[0]), send(arguments[1])]).then(() => done("sent"));
                    """,
                    targets
                )
                #expect(outcome.stringValue == "sent", "both requests were sent")
            }
            #expect(try await app.favorites.members().isEmpty, "the cross-origin POST was refused")
        }
    }

    // MARK: - Helpers

    /// A condition: the favourites list has a row for `title` whose text holds `text`.
    /// Holds the page's timers of `delays` milliseconds until ``fireTimers(_:in:)``; others run.
    static func holdTimers(_ delays: [Int], in browser: WebDriver) async throws {
        try await browser.script(
            """
            const held = new Map(); const delays = new Set(arguments[0]); let next = 0;
            const realSet = window.setTimeout.bind(window), realClear = window.clearTimeout.bind(window);
            window.setTimeout = (callback, delay, ...rest) => {
              if (!delays.has(delay)) return realSet(callback, delay, ...rest);
              const id = `held-${++next}`;
              held.set(id, { callback, delay });
              return id;
            };
            window.clearTimeout = (id) => { if (!held.delete(id)) realClear(id); };
            window.courierHeldTimers = () => [...held.values()].map((timer) => timer.delay);
            window.courierFireTimers = (delay) => {
              const due = [...held.entries()].filter(([, timer]) => timer.delay === delay);
              for (const [id] of due) held.delete(id);
              for (const [, timer] of due) timer.callback();
              return due.length;
            };
            """,
            [.array(delays.map { .integer(Int64($0)) })]
        )
    }

    /// Runs the held timers of `delay` milliseconds; returns how many there were.
    static func fireTimers(_ delay: Int, in browser: WebDriver) async throws -> Int {
        try await browser.script("return window.courierFireTimers(arguments[0])", [.integer(Int64(delay))]).intValue
            ?? -1
    }

    static func row(_ title: String, showing text: String) -> String {
        """
        [...document.querySelectorAll('#favorites li')].some(li => li.dataset.title === \(quoted(title)) && \
        li.textContent.includes(\(quoted(text))))
        """
    }

    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func packet(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return Array(String(format: "%04x", bytes.count + 4).utf8) + bytes
    }

    /// Runs the `courier` binary built beside the tests.
    static func courier(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        var directory = Bundle.main.bundleURL
        var executable: URL?
        for _ in 0..<4 where executable == nil {
            let candidate = directory.appendingPathComponent("courier")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { executable = candidate }
            directory.deleteLastPathComponent()
        }
        guard let executable else { throw WebDriverError("the courier binary is not built") }
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                let process = Process()
                process.executableURL = executable
                process.arguments = arguments
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                let (output, errors) = (Pipe(), Pipe())
                process.standardOutput = output
                process.standardError = errors
                do {
                    try process.run()
                    let stdout = String(decoding: PipeReader.readAll(output.fileHandleForReading), as: UTF8.self)
                    let stderr = String(decoding: PipeReader.readAll(errors.fileHandleForReading), as: UTF8.self)
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, stdout, stderr))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}

/// A thread-safe call counter for the git stand-in's answer.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
