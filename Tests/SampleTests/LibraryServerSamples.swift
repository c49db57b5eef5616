import CourierServerKit
import Foundation
import Hummingbird
import LibraryKit
import LibrarySearch
import LibraryServer

/// The samples of the `LibraryServer` module (its `///` examples and its DocC articles), each in
/// the context it takes for granted. Nothing calls them: the build compiles them.
enum LibraryServerSamples {
    /// Gathers the values of samples that are bare expressions, so that none is unused.
    @resultBuilder
    enum Values {
        static func buildExpression<Value>(_ value: Value) -> [Any] { [value] }
        static func buildBlock(_ components: [Any]...) -> [Any] { components.flatMap { $0 } }
    }

    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - LibraryServer.docc/LibraryServer.md

    static func overview() async throws {
        let data = try LibraryData.load(from: URL(fileURLWithPath: "my-library"))  // or .embedded()
        let server = try LibraryServer(library: Library(data))
        try await server.run(host: "127.0.0.1", port: 8080) { url in print("Serving \(url)") }
    }

    // MARK: - HTTP/LibraryServer.swift

    static func libraryServer() async throws {
        let server = try LibraryServer(library: Library(try LibraryData.embedded()))
        try await server.run(host: "127.0.0.1", port: 8080) { url in print("Serving \(url)") }
    }

}
