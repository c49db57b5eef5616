import Foundation
import Testing

/// Every Swift sample the documentation shows (the README, the DocC articles, the `///`
/// examples in the sources) is also code in a test file, so the test build compiles it and a
/// change that breaks a sample breaks the build.
///
/// A sample counts as compiled when its lines, each trimmed and without the blank lines and
/// whole-line comments, appear one after another in the code of some Swift file under `Tests/`
/// (block comments and multi-line string literals are not code, so they do not count). The
/// mirrors of the samples no other test runs are in this target's `…Samples.swift` files, which
/// give each the context it takes for granted (a `client`, a `transport`, a model type) — but
/// never a stand-in for the package's own API, which would let a sample compile against a fake.
@Suite("Documentation samples")
struct SamplesAreCompiledTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    @Test func everySampleIsCompiledByATest() throws {
        let corpus = try Self.files(under: Self.root.appendingPathComponent("Tests"), ending: "swift")
            .map { "\n" + Self.normalized(Self.code(of: try String(contentsOf: $0, encoding: .utf8))) + "\n" }
        let samples = try Self.allSamples()
        let missing = samples.filter { sample in
            let lines = Self.normalized(sample.code)
            return lines.isEmpty || !corpus.contains { $0.contains("\n" + lines + "\n") }
        }
        #expect(samples.count > 100, "the samples were not found: \(samples.count)")
        let report = missing.map { "\($0.place)\n\($0.code)" }.joined(separator: "\n")
        #expect(
            missing.isEmpty,
            "\(missing.count) of \(samples.count) samples are empty or compiled by no test:\n\(report)"
        )
    }

    /// A mirror that declared its own `TMDB` or `Redaction` would compile a sample against a
    /// stand-in instead of the real API.
    @Test func theMirrorsNeverStandInForThePackagesNamespaces() throws {
        var namespaces: Set<String> = []
        for file in try Self.files(under: Self.root.appendingPathComponent("Sources"), ending: "swift") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: #/(?m)^public (?:indirect )?enum (\w+)/#) {
                namespaces.insert(String(match.1))
            }
        }
        #expect(namespaces.isSuperset(of: ["TMDB", "LibraryService", "ITunesStore", "Redaction", "FNV1a"]))
        let mirrors = Self.root.appendingPathComponent("Tests/SampleTests")
        for file in try Self.files(under: mirrors, ending: "swift") {
            let code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
            let declared = code.matches(of: #/\b(?:enum|struct|class|actor|typealias)\s+(\w+)/#).map { String($0.1) }
            let fakes = Set(declared).intersection(namespaces)
            #expect(fakes.isEmpty, "\(file.lastPathComponent) declares \(fakes.sorted()), which the package defines")
        }
    }

    @Test func codeLeavesOutCommentsAndMultiLineStrings() {
        let source = #"""
            let a = "/3/movie/*" /* gone /* nested */ still gone */
            let b = """
                gone
                """
            let c = #"a "quoted" \(x)"#
            """#
        #expect(Self.code(of: source) == "let a = \"/3/movie/*\" \nlet b = \nlet c = #\"a \"quoted\" \\(x)\"#")
    }

    // MARK: - Finding the samples

    struct Sample {
        var place: String
        var code: String
    }

    static func allSamples() throws -> [Sample] {
        var samples = try samples(inMarkdown: root.appendingPathComponent("README.md"))
        for file in try files(under: root.appendingPathComponent("Sources"), ending: "md") {
            samples += try Self.samples(inMarkdown: file)
        }
        for file in try files(under: root.appendingPathComponent("Sources"), ending: "swift") {
            samples += try Self.samples(inDocComments: file)
        }
        return samples
    }

    /// The ```` ```swift ```` blocks of a Markdown file.
    static func samples(inMarkdown file: URL) throws -> [Sample] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        return blocks(in: lines, file: file) { $0 }
    }

    /// The ```` ```swift ```` blocks of a source file's `///` comments.
    static func samples(inDocComments file: URL) throws -> [Sample] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        return blocks(in: lines, file: file) { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("///") else { return nil }
            let text = trimmed.dropFirst(3)
            return String(text.hasPrefix(" ") ? text.dropFirst() : text)
        }
    }

    /// The Swift blocks among `lines`, each line first passed through `text` (`nil`: not
    /// documentation, which ends a block).
    private static func blocks(in lines: [String], file: URL, text: (String) -> String?) -> [Sample] {
        let path = String(file.standardized.path.dropFirst(root.path.count + 1))
        var samples: [Sample] = []
        var open: (line: Int, code: [String])?
        for (index, line) in lines.enumerated() {
            guard let text = text(line) else {
                open = nil
                continue
            }
            let fence = text.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if fence == "```" {
                    samples.append(Sample(place: "\(path):\(block.line)", code: block.code.joined(separator: "\n")))
                    open = nil
                } else {
                    block.code.append(text)
                    open = block
                }
            } else if fence == "```swift" {
                open = (index + 1, [])
            }
        }
        return samples
    }

    // MARK: - Comparing

    /// The lines of `code`, trimmed, without blank lines and lines that are only a comment.
    static func normalized(_ code: String) -> String {
        code.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") }
            .joined(separator: "\n")
    }

    /// `source` without its block comments (nested ones too) and multi-line string literals;
    /// single-line strings, raw ones included, are kept as they are.
    static func code(of source: String) -> String {
        let characters = Array(source)
        let (open, close) = (Array("/*"), Array("*/"))
        // `"`, `#"`, `##"`…, and the same with `"""`: the openings of string literals.
        let singleLine = (0...3).map { Array(String(repeating: "#", count: $0) + "\"") }
        let multiLine = (0...3).map { Array(String(repeating: "#", count: $0) + "\"\"\"") }
        var kept = ""
        var index = 0
        func starts(with needle: [Character], at position: Int) -> Bool {
            guard position + needle.count <= characters.count else { return false }
            return needle.indices.allSatisfy { characters[position + $0] == needle[$0] }
        }
        while index < characters.count {
            if starts(with: open, at: index) {
                var depth = 0
                repeat {
                    if starts(with: open, at: index) {
                        depth += 1
                        index += 2
                    } else if starts(with: close, at: index) {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < characters.count
            } else if let hashes = multiLine.indices.first(where: { starts(with: multiLine[$0], at: index) }) {
                let end = Array("\"\"\"" + String(repeating: "#", count: hashes))
                index += hashes + 3
                while index < characters.count, !starts(with: end, at: index) { index += 1 }
                index += end.count
            } else if let hashes = singleLine.indices.first(where: { starts(with: singleLine[$0], at: index) }) {
                let end = Array("\"" + String(repeating: "#", count: hashes))
                var position = index + hashes + 1
                while position < characters.count, characters[position] != "\n", !starts(with: end, at: position) {
                    position += hashes == 0 && characters[position] == "\\" ? 2 : 1
                }
                position = min(position + end.count, characters.count)
                kept.append(contentsOf: characters[index..<position])
                index = position
            } else {
                kept.append(characters[index])
                index += 1
            }
        }
        return kept
    }

    static func files(under directory: URL, ending: String) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == ending }.sorted {
            $0.path < $1.path
        }
    }
}
