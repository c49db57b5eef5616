import CourierTestTraits
import Foundation
import Testing

/// `courier --version` prints the newest released version in CHANGELOG.md.
@Suite("courier --version", .loadLimited)
struct VersionTests {
    @Test func theVersionIsTheChangelogsNewest() async throws {
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../CHANGELOG.md").standardized
        let text = try String(contentsOf: changelog, encoding: .utf8)
        // The newest released version: changes not yet released gather under "## Unreleased".
        let heading = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("## ") && !$0.hasPrefix("## Unreleased") }
        )
        let newest = try #require(heading.dropFirst(3).split(separator: " ").first)
        let result = try await Courier.run("--version")
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(newest))
    }
}
