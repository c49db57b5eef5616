import CourierTestTraits
import Foundation
import Testing

/// Every library the package offers has a DocC catalog: a landing page with topics, and at least
/// one task-oriented article. (CI builds each with warnings as errors.)
@Suite(.loadLimited)
struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    /// The targets of the package's library products, read from Package.swift.
    static func libraryTargets() throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let products = try Regex(#"\.library\(name: "[^"]+", targets: \[([^\]]*)\]\)"#)
        var targets: Set<String> = []
        for match in manifest.matches(of: products) {
            let list = match.output[1].substring ?? ""
            targets.formUnion(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces.union(["\""])) })
        }
        return targets
    }

    @Test func everyLibraryHasACatalogWithTopicsAndAnArticle() throws {
        let targets = try Self.libraryTargets()
        #expect(targets.count >= 12)
        for target in targets.sorted() {
            let catalog = Self.root.appendingPathComponent("Sources/\(target)/\(target).docc")
            let landing = catalog.appendingPathComponent("\(target).md")
            let page = try? String(contentsOf: landing, encoding: .utf8)
            #expect(page?.hasPrefix("# ``\(target)``") == true, "\(target) has no landing page")
            #expect(page?.contains("## Topics") == true, "\(target)'s landing page lists no topics")
            let articles = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
            #expect(articles.contains { $0.hasSuffix(".md") && $0 != "\(target).md" }, "\(target) has no article")
        }
    }
}
