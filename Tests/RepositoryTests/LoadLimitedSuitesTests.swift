import CourierTestTraits
import Foundation
import Testing

/// Every test suite carries `.loadLimited` (Tests/CourierTestTraits/LoadLimit.swift).
///
/// Swift Testing starts every test of a run at once; only the suites with this trait wait for
/// one of a few places, so a suite without it would bring back dozens of servers and processes
/// competing for two cores.
@Suite(.loadLimited)
struct LoadLimitedSuitesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    /// Each top-level type with tests but without the trait, and each test function outside a
    /// type (which no suite trait reaches), as `path:line: what`.
    static func unlimited(in text: String, path: String) throws -> [String] {
        let declaration = try Regex(
            #"^(?:@\w+(?:\((?:[^()]|\([^()]*\))*\))?\s*)*(?:(?:public|package|internal|private|fileprivate|final|nonisolated|indirect)\s+)*(?:struct|class|enum|actor)\s+(\w+)"#
        )
        let limited = try Regex(#"@Suite\((?:[^()]|\([^()]*\))*\.loadLimited"#).dotMatchesNewlines()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("@Test") {
                found.append("\(path):\(index + 1): a test outside a suite; put it in a @Suite(.loadLimited) type")
            }
            if let match = try declaration.prefixMatch(in: line) {
                var end = index + 1
                while end < lines.count, lines[end] != "}" { end += 1 }
                // The attributes above the declaration, a multi-line @Suite(…) included.
                var above = index - 1
                while above >= 0,
                    lines[above].hasPrefix("@") || lines[above].hasPrefix(" ") || lines[above].hasPrefix(")"),
                    !lines[above].hasPrefix("///")
                {
                    above -= 1
                }
                let attributes = lines[(above + 1)...index].joined(separator: "\n")
                let hasTests = lines[index..<min(end, lines.count)].contains { $0.contains("@Test") }
                if hasTests, attributes.firstMatch(of: limited) == nil {
                    let name = match.output[1].substring.map(String.init) ?? "?"
                    found.append("\(path):\(index + 1): \(name) has tests but no @Suite(.loadLimited)")
                }
                index = end
            }
            index += 1
        }
        return found
    }

    @Test func everySuiteWaitsItsTurn() throws {
        let tests = Self.root.appendingPathComponent("Tests")
        var missing: [String] = []
        var files = 0
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            files += 1
            let path = String(file.standardized.path.dropFirst(Self.root.path.count + 1))
            missing += try Self.unlimited(in: try String(contentsOf: file, encoding: .utf8), path: path)
        }
        #expect(files > 100)
        #expect(missing.isEmpty, "add .loadLimited to these suites' @Suite traits:\n\(missing.joined(separator: "\n"))")
    }

    @Test func theCheckFindsASuiteWithoutTheTrait() throws {
        let text = """
            @Suite("named")
            struct Forgotten {
                @Test func one() {}
            }

            @Suite(
                "spread",
                .loadLimited
            )
            struct Kept {
                @Test func two() {}
            }

            @Test func loose() {}
            """
        let found = try Self.unlimited(in: text, path: "T.swift")
        #expect(
            found == [
                "T.swift:2: Forgotten has tests but no @Suite(.loadLimited)",
                "T.swift:14: a test outside a suite; put it in a @Suite(.loadLimited) type",
            ]
        )
    }
}
