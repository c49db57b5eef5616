import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

@testable import CourierImages

/// The pipeline against the loopback artwork server, which counts what it really sends.
@Suite(.loadLimited)
struct ImagePipelineTests {
    private func withPipeline(
        cacheDirectory: URL? = nil,
        configuration: ImagePipeline.Configuration = .init(),
        _ body: @Sendable (TestServer, @Sendable () throws -> ImagePipeline) async throws -> Void
    ) async throws {
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                try await body(server) {
                    try ImagePipeline(
                        transport: transport,
                        cacheDirectory: cacheDirectory,
                        configuration: configuration
                    )
                }
            }
        }
    }

    @Test func concurrentRequestsForOneURLShareOneDownload() async throws {
        try await withPipeline { server, makePipeline in
            let pipeline = try makePipeline()
            let url = server.url("/artwork/shared-60.png?delay_ms=200")
            let images = try await withThrowingTaskGroup(of: LoadedImage.self) { group in
                for _ in 0..<25 { group.addTask { try await pipeline.image(for: url) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(images.count == 25)
            #expect(Set(images.map(\.data)).count == 1)
            #expect(images.allSatisfy { $0.source == .network && $0.format == .png && $0.pixelWidth == 60 })
            #expect(await server.events.hitCount("artwork:shared-60.png") == 1)
            let again = try await pipeline.image(for: url)
            #expect(again.source == .memory)
            #expect(again.data == images[0].data)
            #expect(await server.events.hitCount("artwork:shared-60.png") == 1)
        }
    }

    @Test func aCallerThatCancelsLeavesTheDownloadToTheOthers() async throws {
        try await withPipeline { server, makePipeline in
            let pipeline = try makePipeline()
            let url = server.url("/artwork/detach-100.gif?delay_ms=1500")
            let leaving = Task { try await pipeline.image(for: url) }
            let staying = Task { try await pipeline.image(for: url) }
            while pipeline.callersWaiting(for: url) < 2 { await Task.yield() }
            leaving.cancel()
            await #expect(throws: ImageError.self) { try await leaving.value }
            #expect(pipeline.loadsInFlight == 1, "the download goes on for the one still waiting")
            let image = try await staying.value
            #expect(image.pixelWidth == 100 && image.pixelHeight == 100)
            #expect(image.format == .gif)
            #expect(await server.events.hitCount("artwork:detach-100.gif") == 1)
        }
    }

    @Test func theLastCallerLeavingCancelsTheDownload() async throws {
        try await withPipeline { server, makePipeline in
            let pipeline = try makePipeline()
            let url = server.url("/artwork/abandoned-60.png?delay_ms=400")
            let only = Task { try await pipeline.image(for: url) }
            while pipeline.callersWaiting(for: url) == 0 { await Task.yield() }
            only.cancel()
            do {
                _ = try await only.value
                Issue.record("a cancelled caller got an image")
            } catch let error as ImageError {
                guard case .cancelled = error else { throw error }
            }
            #expect(pipeline.loadsInFlight == 0)
            while pipeline.downloadsRunning > 0 { await Task.yield() }  // the abandoned download ended
            #expect(pipeline.cachedImage(for: url) == nil, "the download was cancelled, so nothing was stored")
        }
    }

    @Test func aSecondRunRevalidatesInsteadOfDownloading() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-images-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withPipeline(cacheDirectory: directory) { server, makePipeline in
            let url = server.url("/artwork/revalidate-60.png")
            let first = try await makePipeline().image(for: url)
            #expect(first.source == .network)
            let second = try await makePipeline().image(for: url)  // a new process, in effect: empty memory
            #expect(second.source == .revalidated)
            #expect(second.data == first.data)
            #expect(await server.events.hitCount("artwork:revalidate-60.png") == 1)
            #expect(await server.events.hitCount("artwork-304:revalidate-60.png") == 1)
        }
    }

    @Test func bytesThatAreNotAnImageAreAnErrorAndNotKept() async throws {
        try await withPipeline { server, makePipeline in
            let pipeline = try makePipeline()
            let url = server.url("/artwork/corrupt-100.png")
            for attempt in 1...2 {
                do {
                    _ = try await pipeline.image(for: url)
                    Issue.record("HTML was taken for an image")
                } catch let error as ImageError {
                    guard case .notAnImage(let place, .unknownSignature(let bytes)) = error else { throw error }
                    #expect(place == url.absoluteString)
                    #expect(bytes == Array("<!DOCTYP".utf8))
                    #expect(error.description.contains("is not an image"))
                }
                #expect(await server.events.hitCount("artwork:corrupt-100.png") == attempt, "nothing was cached")
            }
        }
    }

    @Test func aMissingImageIsTheEnginesError() async throws {
        try await withPipeline { server, makePipeline in
            do {
                _ = try await makePipeline().image(for: server.url("/artwork/missing.jpg"))
                Issue.record("a 404 became an image")
            } catch let error as ImageError {
                guard case .request(let request) = error else { throw error }
                #expect(request.category == .clientError)
            }
        }
    }

    @Test func theMemoryCacheKeepsWithinItsCostLimit() async throws {
        let size = TestImages.png(width: 60, height: 60).count
        try await withPipeline(configuration: .init(memoryCostLimit: size * 2 + size / 2)) { server, makePipeline in
            let pipeline = try makePipeline()
            let urls = (1...3).map { server.url("/artwork/lru\($0)-60.png") }
            for url in urls { _ = try await pipeline.image(for: url) }
            #expect(pipeline.cachedImage(for: urls[0]) == nil, "the least recently used went first")
            #expect(pipeline.cachedImage(for: urls[1]) != nil)
            #expect(pipeline.cachedImage(for: urls[2]) != nil)
        }
    }
}

extension ImagePipelineTests {
    @Test func aThousandLoadsOfFiftyURLsAreFiftyDownloads() async throws {
        try await withPipeline { server, makePipeline in
            let pipeline = try makePipeline()
            let urls = (0..<50).map { server.url("/artwork/crowd\($0)-60.png?delay_ms=20") }
            let loaded = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<1000 { group.addTask { try await pipeline.image(for: urls[index % 50]).pixelWidth } }
                return try await group.reduce(0) { $0 + ($1 == 60 ? 1 : 0) }
            }
            #expect(loaded == 1000)
            var downloads = 0
            for index in 0..<50 { downloads += await server.events.hitCount("artwork:crowd\(index)-60.png") }
            #expect(downloads == 50)
        }
    }
}
