import CourierTestTraits
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
@Suite("Documentation samples", .loadLimited)
struct SamplesAreCompiledTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    @Test func everySampleIsCompiledByATest() async throws {
        let (samples, missing) = try await Self.offThePool {
            let corpus = try Self.files(under: Self.root.appendingPathComponent("Tests"), ending: "swift")
                .map { "\n" + Self.normalized(Self.code(of: try String(contentsOf: $0, encoding: .utf8))) + "\n" }
            let samples = try Self.allSamples()
            let missing = samples.filter { sample in
                let lines = Self.normalized(sample.code)
                return lines.isEmpty || !corpus.contains { $0.contains("\n" + lines + "\n") }
            }
            return (samples, missing)
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
    @Test func theMirrorsNeverStandInForThePackagesNamespaces() async throws {
        let (namespaces, fakes) = try await Self.offThePool {
            var namespaces: Set<String> = []
            for file in try Self.files(under: Self.root.appendingPathComponent("Sources"), ending: "swift") {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: #/(?m)^(?:public|package) (?:indirect )?enum (\w+)/#) {
                    namespaces.insert(String(match.1))
                }
            }
            var fakes: [String] = []
            for file in try Self.files(under: Self.root.appendingPathComponent("Tests/SampleTests"), ending: "swift") {
                let code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
                let declared = code.matches(of: #/\b(?:enum|struct|class|actor|typealias)\s+(\w+)/#).map {
                    String($0.1)
                }
                for name in Set(declared).intersection(namespaces).sorted() {
                    fakes.append("\(file.lastPathComponent) declares \(name), which the package defines")
                }
            }
            return (namespaces, fakes)
        }
        #expect(namespaces.isSuperset(of: ["TMDB", "LibraryService", "ITunesStore", "Redaction", "FNV1a"]))
        #expect(fakes.isEmpty, "\(fakes.joined(separator: "\n"))")
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

    /// Runs `work` on a thread of its own: reading every source file takes a while in a debug
    /// build, and the concurrency pool, one thread a core, is the other tests' to share.
    static func offThePool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
        }
    }

    // MARK: - Finding the samples

    struct Sample: Sendable {
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
    /// single-line strings, raw ones included, are kept as they are. On bytes: a character at a
    /// time would keep a core busy for seconds in a debug build.
    static func code(of source: String) -> String {
        let bytes = Array(source.utf8)
        let (slash, star, quote, hash, backslash, newline) = (
            UInt8(ascii: "/"), UInt8(ascii: "*"),
            UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "\\"), UInt8(ascii: "\n")
        )
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = 0
        /// Whether `quote` × `quotes` then `hash` × `hashes` start at `position`.
        func delimiter(at position: Int, quotes: Int, hashes: Int) -> Bool {
            guard position + quotes + hashes <= bytes.count else { return false }
            return (0..<quotes).allSatisfy { bytes[position + $0] == quote }
                && (0..<hashes).allSatisfy { bytes[position + quotes + $0] == hash }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == slash, index + 1 < bytes.count, bytes[index + 1] == star {
                var depth = 0
                repeat {
                    if bytes[index] == slash, index + 1 < bytes.count, bytes[index + 1] == star {
                        depth += 1
                        index += 2
                    } else if bytes[index] == star, index + 1 < bytes.count, bytes[index + 1] == slash {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < bytes.count
                continue
            }
            guard byte == quote || byte == hash else {
                kept.append(byte)
                index += 1
                continue
            }
            var hashes = 0
            while index + hashes < bytes.count, bytes[index + hashes] == hash { hashes += 1 }
            let opening = index + hashes
            guard opening < bytes.count, bytes[opening] == quote else {
                kept.append(contentsOf: bytes[index..<opening])
                index = opening
                continue
            }
            if delimiter(at: opening, quotes: 3, hashes: 0) {
                var position = opening + 3
                while position < bytes.count, !delimiter(at: position, quotes: 3, hashes: hashes) { position += 1 }
                index = min(position + 3 + hashes, bytes.count)
                continue
            }
            var position = opening + 1
            while position < bytes.count, bytes[position] != newline,
                !delimiter(at: position, quotes: 1, hashes: hashes)
            {
                position += hashes == 0 && bytes[position] == backslash ? 2 : 1
            }
            // An unterminated string ends with its line.
            position =
                position < bytes.count && bytes[position] == newline
                ? position : min(position + 1 + hashes, bytes.count)
            kept.append(contentsOf: bytes[index..<position])
            index = position
        }
        return String(decoding: kept, as: UTF8.self)
    }

    static func files(under directory: URL, ending: String) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == ending }.sorted {
            $0.path < $1.path
        }
    }
}
