import Courier
import CourierAppFixture
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import StoreSearch

// The app in headless Chromium against the store stand-in on loopback.
//
//   app-bench grid [COUNT DISTINCT DELAY_MS CONCURRENCY]   (default 200 150 50 6)
//     One search whose COUNT results have DISTINCT artwork URLs, each answering after DELAY_MS,
//     in a window tall enough to show every row: how many downloads reached the stand-in, and
//     the time from the keystroke until every image is decoded, against the bound
//     ceil(DISTINCT / CONCURRENCY) × DELAY_MS.
//
//   app-bench keystrokes [SEARCHES]   (default 200)
//     Keystroke to rendered results through the app (in the page: input event to the results
//     and status in the DOM), and the same searches through the engine alone
//     (`SearchSession.search` against the same stand-in): p50 and p99 of each.

let arguments = Array(CommandLine.arguments.dropFirst())
let numbers = arguments.dropFirst().compactMap { Int($0) }

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
    return sorted[index]
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

switch arguments.first {
case "grid":
    let count = numbers.count > 0 ? numbers[0] : 200
    let distinct = numbers.count > 1 ? numbers[1] : 150
    let delay = numbers.count > 2 ? numbers[2] : 50
    let concurrency = numbers.count > 3 ? numbers[3] : 6
    try await AppFixture.withApp(maximumConcurrentDownloads: concurrency) { app in
        let elapsed = try await WebDriver.withBrowser { browser in
            try await browser.open(app.page("store"))
            try await browser.wait(until: "document.getElementById('store-query') !== null")
            // Every row on screen at once, so that every image is wanted: 200 rows of about
            // 75 px shrink to fit the window.
            try await browser.script(
                "document.documentElement.style.zoom = String(Math.min(1, 600 / (arguments[0] * 80)))",
                [.number(Double(count))]
            )
            return try await browser.asyncScript(
                """
                const [term, expected, done] = arguments;
                const input = document.getElementById("store-query");
                const start = performance.now();
                input.value = term;
                input.dispatchEvent(new Event("input"));
                const check = () => {
                  const images = [...document.querySelectorAll("#store-results img")];
                  return images.length === expected && images.every((image) => image.complete && image.naturalWidth > 0);
                };
                const finish = () => { if (check()) { clearInterval(timer); observer.disconnect(); done(performance.now() - start); } };
                const observer = new MutationObserver(finish);
                observer.observe(document.body, { subtree: true, childList: true, attributes: true });
                document.addEventListener("load", finish, true);
                const timer = setInterval(finish, 5);
                """,
                [.string("grid:\(count):\(distinct):\(delay)"), .number(Double(count))]
            ).doubleValue ?? .nan
        }
        var downloads = 0
        for image in 0..<distinct { downloads += await app.server.events.hitCount("artwork:grid\(image)-60.png") }
        let bound = Double((distinct + concurrency - 1) / concurrency * delay)
        print(
            "results: \(count), distinct artwork URLs: \(distinct), stand-in latency: \(delay) ms, concurrency: \(concurrency)"
        )
        print("upstream downloads: \(downloads)")
        print(
            String(
                format: "keystroke to every image shown: %.0f ms (bound %.0f ms, %.2fx)",
                elapsed,
                bound,
                elapsed / bound
            )
        )
    }

case "keystrokes":
    let searches = numbers.first ?? 200
    try await AppFixture.withApp { app in
        let throughApp = try await WebDriver.withBrowser { browser in
            try await browser.open(app.page("store"))
            try await browser.wait(until: "document.getElementById('store-query') !== null")
            return try await browser.asyncScript(
                """
                const [count, done] = arguments;
                const input = document.getElementById("store-query");
                const status = document.getElementById("store-status");
                const list = document.getElementById("store-results");
                const times = [];
                const next = (index) => {
                  if (index === count) { done(times); return; }
                  const start = performance.now();
                  const observer = new MutationObserver(() => {
                    if (list.children.length === 16 && status.textContent.startsWith("16 results")) {
                      observer.disconnect();
                      times.push(performance.now() - start);
                      list.replaceChildren();
                      status.textContent = "";
                      setTimeout(() => next(index + 1), 0);
                    }
                  });
                  observer.observe(document.getElementById("store"), { subtree: true, childList: true, characterData: true });
                  input.value = `king ${index}`;
                  input.dispatchEvent(new Event("input"));
                };
                next(0);
                """,
                [.number(Double(searches))]
            ).arrayValue?.compactMap(\.doubleValue) ?? []
        }
        let engineAlone = try await AsyncHTTPClientTransport.withTransport { transport in
            let session = SearchSession(
                store: HTTPClient(transport: transport, configuration: .iTunesStore(baseURL: app.server.baseURL))
            )
            var times: [Double] = []
            for index in 0..<searches {
                let start = ContinuousClock.now
                _ = try await session.search("king \(index)")
                times.append(milliseconds(ContinuousClock.now - start))
            }
            return times
        }
        print("searches: \(searches) (16 results each, artwork loading meanwhile in the page)")
        print(
            String(
                format: "through the app (keystroke to render): p50 %.1f ms, p99 %.1f ms",
                percentile(throughApp, 0.5),
                percentile(throughApp, 0.99)
            )
        )
        print(
            String(
                format: "engine alone (SearchSession.search): p50 %.1f ms, p99 %.1f ms",
                percentile(engineAlone, 0.5),
                percentile(engineAlone, 0.99)
            )
        )
    }

default:
    print("usage: app-bench grid [COUNT DISTINCT DELAY_MS CONCURRENCY] | app-bench keystrokes [SEARCHES]")
    exit(2)
}
