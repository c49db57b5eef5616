import Feeds
import Foundation

/// `feed-bench scale`: hostile documents of 1, 2, 4 and 8 MB, parsed whole and streamed in
/// 64-byte pieces; the time per size (the fastest of five samples) and the ratio per doubling
/// (linear is 2.0).
enum Scaling {
    /// A hostile case: the document of about `size` bytes, and whether to trickle it.
    struct Case: Sendable {
        var name: String
        var trickled = false
        var make: @Sendable (_ size: Int) -> [UInt8]
    }

    static func repeated(_ prefix: String, _ piece: String, _ suffix: String, size: Int) -> [UInt8] {
        let count = max(1, (size - prefix.utf8.count - suffix.utf8.count) / piece.utf8.count)
        return Array((prefix + String(repeating: piece, count: count) + suffix).utf8)
    }

    static let cases: [Case] = [
        Case(name: "Atom title type=html of &lt;") { size in
            repeated(
                "<feed xmlns='http://www.w3.org/2005/Atom'><title type='html'>",
                "&lt;",
                "</title></feed>",
                size: size
            )
        },
        Case(name: "Atom title type=html of &lt;a x=&quot;") { size in
            repeated(
                "<feed xmlns='http://www.w3.org/2005/Atom'><title type='html'>",
                "&lt;a x=&quot;",
                "</title></feed>",
                size: size
            )
        },
        Case(name: "RSS description: CDATA of <") { size in
            repeated(
                "<rss><channel><item><description><![CDATA[<p>",
                "<",
                "]]></description></item></channel></rss>",
                size: size
            )
        },
        Case(name: "JSON Feed title of <") { size in
            repeated(
                #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1", "title": ""#,
                "<",
                #""}]}"#,
                size: size
            )
        },
        Case(name: "one tag, distinct attributes") { size in
            var text = "<rss><channel><item a0='x'"
            var index = 1
            while text.utf8.count < size {
                text += " a\(index)='x'"
                index += 1
            }
            return Array((text + "/></channel></rss>").utf8)
        },
        Case(name: "undeclared prefixes") { size in
            var text = "<rss><channel>"
            var index = 0
            while text.utf8.count < size {
                text += "<p\(index):x/>"
                index += 1
            }
            return Array((text + "</channel></rss>").utf8)
        },
        Case(name: "entities: &amp; and &#233;") { size in
            repeated(
                "<rss><channel><item><title>",
                "&amp;&#233;&eacute;",
                "</title></item></channel></rss>",
                size: size
            )
        },
        Case(name: "tiny entries") { size in
            repeated("<rss><channel>", "<item><title>x</title></item>", "</channel></rss>", size: size)
        },
        Case(name: "comment, trickled", trickled: true) { size in
            repeated("<rss><channel><!--", "-- -", "--></channel></rss>", size: size)
        },
        Case(name: "ISO-8859-1 text, trickled", trickled: true) { size in
            let prefix = Array("<?xml version='1.0' encoding='iso-8859-1'?>\u{FEFF}<rss><channel><title>".utf8)
            var bytes = prefix
            while bytes.count < size { bytes += [0x63, 0x61, 0x66, 0xE9, 0x20] }
            return bytes + Array("</title></channel></rss>".utf8)
        },
        Case(name: "UTF-8 with a BOM, trickled", trickled: true) { size in
            [0xEF, 0xBB, 0xBF]
                + repeated("<rss><channel>", "<item><title>é</title></item>", "</channel></rss>", size: size)
        },
    ]

    /// Chunks of 64 bytes.
    struct Trickle: AsyncSequence {
        typealias Element = Data
        let bytes: [UInt8]
        struct AsyncIterator: AsyncIteratorProtocol {
            let bytes: [UInt8]
            var offset = 0
            mutating func next() async -> Data? {
                guard offset < bytes.count else { return nil }
                let end = Swift.min(offset + 64, bytes.count)
                defer { offset = end }
                return Data(bytes[offset..<end])
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
    }

    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func run() async {
        // FEED_SCALE_MB=2,4,8,16 and FEED_SCALE_CASE=CDATA look further or at one case.
        let environment = ProcessInfo.processInfo.environment
        let megabytes = environment["FEED_SCALE_MB"]?.split(separator: ",").compactMap { Int($0) } ?? [1, 2, 4, 8]
        let sizes = megabytes.map { $0 << 20 }
        print("| case | " + megabytes.map { "\($0) MB" }.joined(separator: " | ") + " | worst doubling |")
        print("|---|" + String(repeating: "---:|", count: sizes.count + 1))
        for hostile in cases where environment["FEED_SCALE_CASE"].map(hostile.name.contains) ?? true {
            var times: [Double] = []
            for size in sizes {
                let bytes = hostile.make(size)
                // The fastest of five samples (the least disturbed on a shared machine), each
                // parsing the document enough times to last 50 ms or so.
                let parse = {
                    if hostile.trickled {
                        do {
                            for try await _ in FeedParser().entries(in: Trickle(bytes: bytes)) {}
                        } catch {}
                    } else {
                        _ = try? FeedParser().parse(Data(bytes))
                    }
                }
                let once = await seconds { await parse() }
                let repeats = max(1, Int(0.05 / max(once, 1e-4)))
                var samples: [Double] = []
                for _ in 0..<5 {
                    samples.append(await seconds { for _ in 0..<repeats { await parse() } } / Double(repeats))
                }
                times.append(samples.min() ?? once)
            }
            let worst = zip(times.dropFirst(), times).map { $0 / max($1, 1e-6) }.max() ?? 0
            let cells = times.map { String(format: "%.1f ms", $0 * 1000) }.joined(separator: " | ")
            print("| \(hostile.name) | \(cells) | \(String(format: "%.2f×", worst)) |")
        }
    }
}
