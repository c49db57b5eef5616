import Foundation
import LibraryKit
import LibrarySearch
import Logging

/// The samples of the `LibrarySearch` module (its `///` examples and its DocC articles), each in
/// the context it takes for granted. Nothing calls them: the build compiles them.
enum LibrarySearchSamples {
    /// Gathers the values of samples that are bare expressions, so that none is unused.
    @resultBuilder
    enum Values {
        static func buildExpression<Value>(_ value: Value) -> [Any] { [value] }
        static func buildBlock(_ components: [Any]...) -> [Any] { components.flatMap { $0 } }
    }

    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - LibrarySearch.docc/LibrarySearch.md

    // swift-format-ignore
    @Values
    static func overview() async throws -> [Any] {
        let library = Library(try LibraryData.load(from: URL(fileURLWithPath: "my-library")))
        let page = library.search(.catalog, prefix: "the gr", limit: 20, offset: 0)
        page.total        // every title starting with "the gr", case and accents aside
        page.entityTag    // changes whenever the page's bytes or total do
    }

    // MARK: - Data/LibraryData.swift

    static func libraryData() throws {
        let data = try LibraryData.load(from: URL(fileURLWithPath: "data"))
        let library = Library(data)
        keep(library)
    }

    // MARK: - Data/SyntheticData.swift

    // swift-format-ignore
    static func syntheticData() {
        let data = LibraryData(locations: SyntheticData.locations(count: 1_000), books: SyntheticData.books(count: 1_000_000))
        keep(data)
    }

    // MARK: - Search/PrefixIndex.swift

    // swift-format-ignore
    @Values
    static func prefixIndex() -> [Any] {
        let index = PrefixIndex(keys: ["Dune", "Dubliners", "Emma"])
        index.range(ofPrefix: "du")  // 0..<2: "Dubliners", "Dune"
        index.order                  // [1, 0, 2]: positions of the keys given, in sorted order
    }

    // MARK: - Search/SearchableList.swift

    // swift-format-ignore
    @Values
    static func searchableList(data: LibraryData) -> [Any] {
        let books = SearchableList(data.books, key: \.title)
        let result = books.search("the ", limit: 20, offset: 0)
        result.total              // every title starting with "the "
        books.items(in: result)   // the first 20 of them
        books.json(for: result)   // `[{…},{…}]`, ready to send
    }

    // MARK: - ReloadingLibrary.swift

    static func reloadingLibrary(logger: Logger) throws {
        let library = try ReloadingLibrary(directory: URL(fileURLWithPath: "my-library"), logger: logger)
        // while serving: try await library.run() notices edits; library.reload() reads the files now.
        keep(library)
    }
}
