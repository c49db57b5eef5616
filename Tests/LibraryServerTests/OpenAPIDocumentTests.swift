import Courier
import CourierTestTraits
import Foundation
import Hummingbird
import LibraryKit
import LibrarySearch
import LibraryServer
import OpenAPIKit
import Testing

@Suite(.loadLimited)
struct OpenAPIDocumentTests {
    @Test func isAValidOpenAPI31DocumentDescribingEveryRoute() async throws {
        try await LibraryServiceFixture.withService { library, url async throws in
            let response = try await library.send(
                library.prepare(.init(url: url.appendingPathComponent("openapi.json")))
            )
            #expect(response.status == 200)
            let document = try JSONDecoder().decode(OpenAPI.Document.self, from: response.body)
            try document.validate()
            #expect(document.openAPIVersion == .v3_1_0)

            let server = try LibraryServer(library: Library(LibraryServiceFixture.data))
            let routes = Set(server.router().routes.map { "\($0.method) \($0.path)" })
            var documented: Set<String> = []
            for (path, item) in document.paths {
                let operations = try #require(item.pathItemValue).endpoints
                for operation in operations { documented.insert("\(operation.method.rawValue) \(path.rawValue)") }
            }
            #expect(documented == routes.filter { $0.hasPrefix("GET ") })
            #expect(Set(LibraryServer.paths.map { "GET \($0)" }) == documented)
        }
    }
}
