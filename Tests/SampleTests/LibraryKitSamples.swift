import Courier
import CourierAsyncHTTPClient
import Foundation
import LibraryKit

/// The samples of the `LibraryKit` module (its `///` examples and its DocC articles), each in the
/// context it takes for granted. Nothing calls them: the build compiles them.
enum LibraryKitSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - LibraryKit.docc/LibraryKit.md

    static func overview(transport: some HTTPTransport, service: URL) async throws {
        let library = HTTPClient(transport: transport, configuration: .library(service: service))
        let page = try await library.send(LibraryService.catalog(titlePrefix: "the ", limit: 20))
        for book in page.items { print(book.title, book.author ?? "", book.year.map(String.init) ?? "") }
        if page.hasMore { print("… \(page.total - page.items.count) more") }
    }

    // MARK: - LibraryKit.docc/SearchingALibrary.md

    static func searchingALibrary() async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            let service = URL(string: "http://127.0.0.1:8080")!
            let library = HTTPClient(transport: transport, configuration: .library(service: service))
            var page = try await library.send(LibraryService.catalog(titlePrefix: "the ", limit: 50))
            while true {
                for book in page.items { print(book.title) }
                guard page.hasMore else { break }
                let next = page.offset + page.items.count
                page = try await library.send(LibraryService.catalog(titlePrefix: "the ", limit: 50, offset: next))
            }
        }
    }

    // MARK: - LibraryService.swift

    static func libraryService(transport: some HTTPTransport, service: URL) async throws {
        let library = HTTPClient(transport: transport, configuration: .library(service: service))
        let page = try await library.send(LibraryService.locations(country: "France"))
        print("\(page.items.count) of \(page.total)")
        let next = try await library.send(LibraryService.catalog(titlePrefix: "the ", limit: 50, offset: 50))
        let health = try await library.send(LibraryService.health)
        keep(next)
        keep(health)
    }

    // MARK: - HTTPClient.Configuration+Library.swift

    static func libraryConfiguration(transport: some HTTPTransport, service: URL) async throws {
        let library = HTTPClient(transport: transport, configuration: .library(service: service))
        let books = try await library.send(LibraryService.catalog(titlePrefix: "dune"))
        keep(books)
    }
}
