import Courier
import CourierImages
import CourierTestTraits
import Foundation
import HTTPTypes
import StoreSearch
import Synchronization
import Testing

/// Artwork a store names is fetched only as a redirect from the store would be (issue 28: a
/// hostile store could point the client at `http://127.0.0.1:…`).
@Suite(.loadLimited)
struct ArtworkSaverTests {
    /// Counts requests; every one gets a 404 (nothing here should be fetched).
    private final class Counting: HTTPTransport {
        private let sent = Mutex<[String]>([])
        var urls: [String] { sent.withLock { $0 } }

        func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
            sent.withLock { $0.append(request.url) }
            return RawResponse(head: .init(status: .notFound), url: request.url)
        }
    }

    @Test func artworkCloserToThisMachineThanTheStoreIsNotFetched() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("artwork-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = Counting()
        let store: URL = try #require(URL(string: "https://itunes.apple.com"))
        let saver = ArtworkSaver(pipeline: ImagePipeline(client: HTTPClient(transport: transport)), store: store)
        let hostile = ["http://127.0.0.1:9400/a.png", "https://192.168.1.1/b.png", "http://is1.example/c.png"]
        let results = try hostile.enumerated().map { index, text in
            let url: URL = try #require(URL(string: text))
            return SearchResult(name: "R\(index)", type: "song", imageSmall: url)
        }
        let summary = try await saver.save(results, size: .small, to: directory)
        #expect(summary.failures.count == 3)
        #expect(summary.failures.allSatisfy { $0.reason.hasPrefix("not fetched: the store named ") })
        #expect(transport.urls.isEmpty)
    }
}
