import Foundation
import Testing

/// Every Swift sample the documentation shows (the README, the DocC articles, the `///`
/// examples in the sources) is also code in a test file, so the test build compiles it and a
/// change that breaks a sample breaks the build.
///
/// A sample counts as compiled when its lines, each trimmed and without the blank lines and
/// whole-line comments, appear one after another in some Swift file under `Tests/`. The mirrors
/// of the samples no other test runs are in this target's `…Samples.swift` files, which give
/// each the context it takes for granted (a `client`, a `transport`, a model type).
@Suite("Documentation samples")
struct SamplesAreCompiledTests {
    @Test func everySampleIsCompiledByATest() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../..").standardized
        let corpus = try Self.swiftFiles(under: root.appendingPathComponent("Tests"))
            .map { "\n" + Self.normalized(try String(contentsOf: $0, encoding: .utf8)) + "\n" }

        var samples = try Self.samples(inMarkdown: root.appendingPathComponent("README.md"), root: root)
        for file in try Self.files(under: root.appendingPathComponent("Sources")) {
            if file.pathExtension == "md" { samples += try Self.samples(inMarkdown: file, root: root) }
            if file.pathExtension == "swift" { samples += try Self.samples(inDocComments: file, root: root) }
        }
        let missing = samples.filter { sample in
            let lines = "\n" + Self.normalized(sample.code) + "\n"
            return lines != "\n\n" && !corpus.contains { $0.contains(lines) }
        }
        #expect(samples.count > 80, "the samples were not found: \(samples.count)")
        let report = missing.map { "\($0.place)\n\($0.code)" }.joined(separator: "\n")
        #expect(missing.isEmpty, "\(missing.count) of \(samples.count) samples are compiled by no test:\n\(report)")
    }

    // MARK: - Finding the samples

    struct Sample {
        var place: String
        var code: String
    }

    /// The ```` ```swift ```` blocks of a Markdown file.
    static func samples(inMarkdown file: URL, root: URL) throws -> [Sample] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        return blocks(in: lines, file: file, root: root) { $0 }
    }

    /// The ```` ```swift ```` blocks of a source file's `///` comments.
    static func samples(inDocComments file: URL, root: URL) throws -> [Sample] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        return blocks(in: lines, file: file, root: root) { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("///") else { return nil }
            let text = trimmed.dropFirst(3)
            return String(text.hasPrefix(" ") ? text.dropFirst() : text)
        }
    }

    /// The Swift blocks among `lines`, each line first passed through `text` (`nil`: not
    /// documentation, which ends a block).
    private static func blocks(in lines: [String], file: URL, root: URL, text: (String) -> String?) -> [Sample] {
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

    static func swiftFiles(under directory: URL) throws -> [URL] {
        try files(under: directory).filter { $0.pathExtension == "swift" }
    }

    static func files(under directory: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath }.sorted { $0.path < $1.path }
    }
}
