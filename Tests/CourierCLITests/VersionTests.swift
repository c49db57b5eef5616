import ArgumentParser
import CourierTestTraits
import Foundation
import Testing

@testable import CourierCLI

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

/// What keeps `courier` quick to start: a command whose name ArgumentParser has to work out
/// from its type (`String(describing:)`) costs a scan of every protocol conformance in the
/// binary, about a millisecond in the shipped one, on every run.
@Suite("courier's start-up", .loadLimited)
struct StartUpTests {
    @Test func everyCommandNamesItself() {
        var unnamed: [String] = []
        var commands: [any ParsableCommand.Type] = [CourierCommand.self]
        while let command = commands.popLast() {
            if command.configuration.commandName == nil { unnamed.append("\(command)") }
            commands += command.configuration.subcommands
        }
        #expect(unnamed.isEmpty, "give these a commandName in their configuration: \(unnamed)")
    }
}
