import Courier
import Feeds
import Foundation
import Hummingbird
import NIOCore

/// The Feed tab: `GET /api/feed?url=` (or `?example`) streams the feed's entries as JSON Lines,
/// each as soon as it is parsed, then the feed's own fields — or the error that ended it.
struct FeedRoutes: Sendable {
    let client: HTTPClient
    let example: Data?
    /// Entries sent to the page at most.
    static let maximumEntries = 1000

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/feed") { request, _ in feed(request) }
    }

    private func feed(_ request: Request) -> Response {
        let source: Source
        if request.parameter("example") != nil {
            guard let example else { return AppResponse.problem(.notFound, "This app has no example feed.") }
            source = .bytes(example)
        } else {
            guard let text = request.parameter("url"), let url = URL(string: text),
                let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
            else {
                return AppResponse.problem(.badRequest, "Give the feed's address, starting with https:// or http://.")
            }
            source = .url(url)
        }
        let client = client
        return Response(
            status: .ok,
            headers: AppResponse.closingStreamHeaders,
            body: ResponseBody { writer in
                do {
                    try await request.untilClientLeaves {
                        try await Self.read(source, client: client) { line in try await writer.write(line) }
                    }
                } catch let error as FeedError {
                    try await writer.write(
                        AppResponse.line(Line(error: "This is not a feed that can be read: \(error.message)"))
                    )
                } catch let error as RequestError {
                    try await writer.write(AppResponse.line(Line(error: error.message)))
                } catch is CancellationError {
                    return
                }
                try await writer.finish(nil)
            }
        )
    }

    private enum Source: Sendable {
        case url(URL)
        case bytes(Data)
    }

    private static let accept =
        "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8"

    private static func read(
        _ source: Source,
        client: HTTPClient,
        write: (ByteBuffer) async throws -> Void
    ) async throws {
        let parser = FeedParser()
        switch source {
        case .url(let url):
            let response = try await client.stream(
                Endpoint<Data>(url: url, headers: [.accept: accept]),
                timeout: .seconds(120),
                idleTimeout: .seconds(30)
            )
            let entries = parser.entries(
                in: response.body,
                baseURL: URL(string: response.url),
                contentType: response.head.headerFields[.contentType]
            )
            try await send(entries, write: write)
        case .bytes(let document):
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(document)
                continuation.finish()
            }
            try await send(parser.entries(in: chunks), write: write)
        }
    }

    private static func send<Chunks: AsyncSequence>(
        _ entries: FeedEntries<Chunks>,
        write: (ByteBuffer) async throws -> Void
    ) async throws {
        var iterator = entries.makeAsyncIterator()
        var count = 0
        var contentLeft = EntryJSON.maximumContentInAll
        while count < maximumEntries, let entry = try await iterator.next() {
            let json = EntryJSON(entry, contentLeft: contentLeft)
            contentLeft -= json.contentHTML?.utf8.count ?? 0
            try await write(AppResponse.line(Line(entry: json)))
            count += 1
        }
        let feed = iterator.feed
        try await write(
            AppResponse.line(
                Line(feed: FeedJSON(title: feed.title, link: feed.link, subtitle: feed.subtitle, problem: feed.problem))
            )
        )
    }

    /// One line of the stream: an entry, the feed's fields at the end, or an error.
    private struct Line: Encodable {
        var entry: EntryJSON?
        var feed: FeedJSON?
        var error: String?
    }

    private struct EntryJSON: Encodable {
        var title: String?
        var link: String?
        var date: Date?
        var summary: String?
        /// The content as HTML safe to show (`Entry.safeContent`), when it is not too long.
        var contentHTML: String?

        /// The longest content the page is given for one entry, in UTF-8 bytes.
        static let maximumContent = 64 << 10
        /// The most content one feed gives the page, in UTF-8 bytes: later entries come without.
        static let maximumContentInAll = 4 << 20

        init(_ entry: Entry, contentLeft: Int) {
            title = entry.title
            link = entry.link
            date = entry.published ?? entry.updated
            summary = entry.summary.map { $0.count > 600 ? String($0.prefix(600)) + "…" : $0 }
            if contentLeft > 0, let content = entry.content, content.utf8.count <= 4 * Self.maximumContent {
                // Sanitized only as far as could be sent: resolving links can make it longer.
                let html = entry.safeContent(maximumLength: Self.maximumContent + 1) ?? ""
                if html.utf8.count <= min(Self.maximumContent, contentLeft) { contentHTML = html }
            }
        }

        enum CodingKeys: String, CodingKey {
            case title, link, date, summary
            case contentHTML = "content_html"
        }
    }

    private struct FeedJSON: Encodable {
        var title: String?
        var link: String?
        var subtitle: String?
        var problem: String?
    }
}
