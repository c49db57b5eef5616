import Courier
import CourierApp
import CourierAppFixture
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

/// The Refs tab over HTTP: the example repository the app serves itself, and a real
/// `git http-backend`.
@Suite(.loadLimited)
struct AppRefsTests {
    /// The example repository's refs, as `git ls-remote --symref` printed them.
    static let exampleListing: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Sources/CourierApp/Resources/Examples/courier-example.refs"
            )
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func theExampleRepositoryStreamsItsRefsWithNoNetwork() async throws {
        try await AppHTTPTests.withPage { _, page in
            let lines = try AppEndpointTests.lines(try await page.response(.get, "/api/refs?example"))
            let refs = lines.compactMap { $0["ref"] }
            let listed = Self.exampleListing.split(separator: "\n").filter { !$0.hasPrefix("ref: ") }
            #expect(refs.count == listed.count)
            #expect(refs.count == 12)
            for (ref, line) in zip(refs, listed) {
                #expect("\(ref["object_id"]?.stringValue ?? "")\t\(ref["name"]?.stringValue ?? "")" == String(line))
            }
            #expect(lines.last?["head"]?.stringValue == "refs/heads/main")
            #expect(lines.last?["done"]?.boolValue == true)
        }
    }

    @Test(.enabled(if: GitRepositories.isAvailable, "needs git"))
    func gitListsTheExampleRepositoryAsTheFileSays() async throws {
        try await ExampleRepository.withService { url in
            let listing = try await Self.onThread {
                try GitRepositories.git(["-c", "protocol.version=2", "ls-remote", "--symref", url.absoluteString])
            }
            #expect(listing == Self.exampleListing)
        }
    }

    @Test(.enabled(if: GitRepositories.isAvailable, "needs git"))
    func anHTTPSRepositoryStreamsLikeAGitOne() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("app-refs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.onThread { try GitRepositories.make(in: root) }
        try await GitHTTPServer.withRunning(root: root) { server in
            try await AppHTTPTests.withPage { _, page in
                let query =
                    "url=" + (server.url("full.git").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                let lines = try AppEndpointTests.lines(try await page.response(.get, "/api/refs?\(query)"))
                let names = lines.compactMap { $0["ref"]?["name"]?.stringValue }
                #expect(names.first == "HEAD")
                #expect(names.contains("refs/tags/tag-of-tag^{}"))
                #expect(lines.last?["head"]?.stringValue == "refs/heads/main")
                let missing =
                    "url=" + (server.url("nope.git").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                let failed = try AppEndpointTests.lines(try await page.response(.get, "/api/refs?\(missing)"))
                #expect(failed.last?["error"]?.stringValue?.hasPrefix("There is no repository at") == true)
                #expect(try await page.status(.get, "/api/refs?url=http%3A%2F%2Fexample.org%2Frepo.git") == 403)
                #expect(try await page.status(.get, "/api/refs?url=ftp%3A%2F%2Fexample.org%2Frepo.git") == 400)
            }
        }
    }

    private static func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
