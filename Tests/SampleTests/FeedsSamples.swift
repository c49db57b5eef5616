import Courier
import Feeds
import Foundation

/// The samples of the `Feeds` module (its `///` examples and its DocC catalog) and the README's
/// feeds sample, each in the context it takes for granted. Nothing calls them: the build
/// compiles them.
enum FeedsSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - Feeds.docc/Feeds.md, Parsing/FeedParser.swift

    static func parse(data: Data) throws {
        let feed = try FeedParser().parse(data, baseURL: URL(string: "https://example.com/feed.xml"))
        for entry in feed.entries { print(entry.published ?? .distantPast, entry.title ?? "") }
    }

    // MARK: - Model/FeedError.swift

    static func feedError(data: Data) {
        do throws(FeedError) {
            let feed = try FeedParser().parse(data)
            print(feed.title ?? "untitled")
        } catch .limitExceeded(.documentSize(let limit)) {
            print("larger than \(limit) bytes")
        } catch {
            print(error.message)
        }
    }

    // MARK: - Parsing/FeedEntries.swift

    static func entriesOfAStream(client: HTTPClient, url: URL) async throws {
        let response = try await client.stream(Endpoint<Data>(url: url))  // Courier's streamed body
        for try await entry in FeedParser().entries(in: response.body) { print(entry.title ?? "") }
    }

    static func entriesOfAFile() async throws {
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "feed.xml"))
        for try await entry in FeedParser().entries(in: file) { print(entry.title ?? "") }
    }

    // MARK: - README.md, "courier feed"

    // swift-format-ignore
    static func readme(
        data: Data,
        url: URL,
        contentType: String?,
        chunks: StreamedResponse.Body,
        fileHandle: FileHandle
    ) async throws {
        let feed = try FeedParser().parse(data, baseURL: url, contentType: contentType)
        for try await entry in FeedParser().entries(in: chunks) { print(entry.title ?? "") }      // a stream: memory bounded by one entry
        for try await entry in FeedParser().entries(in: fileHandle) { print(entry.title ?? "") }  // a file: read as parse reads it
        keep(feed)
    }

    // MARK: - Model/FeedHTML.swift

    // swift-format-ignore
    static func sanitizing() {
        let html = FeedHTML.sanitized(#"<p onclick="x()">Hi <script>steal()</script><a href="/a">a</a></p>"#,
                                      base: URL(string: "https://example.com/blog/"))
        // <p>Hi <a href="https://example.com/a" rel="noopener noreferrer nofollow">a</a></p>
        keep(html)
    }
}
