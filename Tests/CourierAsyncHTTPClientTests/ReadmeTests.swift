// swift-format-ignore-file: OrderedImports
// (The README quotes the second import block, so it stays next to the example.)

import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

// README:begin
import Courier
import CourierAsyncHTTPClient

struct Book: Decodable, Sendable {
    var title: String
    var author: String
    var year: Int
}

enum Library {
    static func catalog(startingWith prefix: String) -> Endpoint<[Book]> {
        Endpoint(host: "library.example.com", path: "/catalog", query: [URLQueryItem(name: "q", value: prefix)])
    }
}

/// Pass `service` to point the client at a local stand-in instead of library.example.com.
func books(startingWith prefix: String, service: URL? = nil) async throws -> [Book] {
    try await AsyncHTTPClientTransport.withTransport { transport in
        let client = HTTPClient(transport: transport, configuration: .init(baseURL: service))
        do throws(RequestError) {
            return try await client.send(Library.catalog(startingWith: prefix))
        } catch .cancelled {
            return []  // superseded or abandoned: not a failure
        } catch {
            print(error.message)  // "GET https://library.example.com/catalog?q=Du returned 503 Service Unavailable: …"
            throw error
        }
    }
}
// README:end

/// The README's example is this file's code: it compiles, it runs, and the README quotes it
/// exactly.
@Suite("README", .loadLimited)
struct ReadmeTests {
    @Test func theExampleRunsAgainstALocalService() async throws {
        let titles = try await TestServer.withRunning { server in
            try await books(startingWith: "Du", service: server.baseURL).map(\.title)
        }
        #expect(titles == ["Dubliners", "Dune"])
    }

    @Test func theREADMEQuotesThisCode() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let start = try #require(source.range(of: "// README:begin\n"))
        let end = try #require(source.range(of: "// README:end"))
        let example = String(source[start.upperBound..<end.lowerBound])
        let readmeURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardized
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```"))
    }
}
