import CourierTestTraits
import Foundation
import LibraryKit
import LibrarySearch
import Logging
import Synchronization
import Testing

/// A data directory served as it changes: edits checked, then swapped in; a bad edit keeps the
/// last good data and says why (issue 32). Real files in a temporary directory.
@Suite(.loadLimited)
struct ReloadingLibraryTests {
    static let paris =
        #"[{"street_address": "1 Rue", "city": "Paris", "country": "France", "emoji": "🇫🇷", "hours": "9am–5pm"}]"#

    /// A directory with `catalog` and the Paris location, removed when `body` ends.
    static func withDirectory<Result>(catalog: String, _ body: (URL) async throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reloading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(catalog.utf8).write(to: directory.appendingPathComponent("catalog.json"))
        try Data(paris.utf8).write(to: directory.appendingPathComponent("locations.json"))
        return try await body(directory)
    }

    static func titles(_ library: some LibraryStore) async throws -> String {
        let page = try await library.search(.catalog, prefix: "", limit: 10, offset: 0)
        return String(decoding: page.elements, as: UTF8.self)
    }

    /// Rewrites `file` in place, as an editor that does not rename writes it.
    static func write(_ text: String, to directory: URL, file: String = "catalog.json") throws {
        let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(file))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    @Test func anEditIsCheckedThenServedAndABadOneKeepsTheLastGoodData() async throws {
        try await Self.withDirectory(catalog: #"[{"title": "Dune"}]"#) { directory in
            let messages = LogCollector()
            let files = try ReloadingLibrary(directory: directory, logger: messages.logger)
            #expect(files.version == 1)
            #expect(files.reload() == .unchanged)
            let before = files.library
            let tagBefore = files.search(.catalog, prefix: "", limit: 10, offset: 0).entityTag

            try Self.write(#"[{"title": "Dune"}, {"title": "Emma", "year": 1815}]"#, to: directory)
            #expect(files.reload() == .reloaded(version: 2))
            #expect(try await Self.titles(files) == #"{"title":"Dune"},{"title":"Emma","year":1815}"#)
            #expect(files.search(.catalog, prefix: "", limit: 10, offset: 0).entityTag != tagBefore)
            #expect(files.health().version == 2 && files.health().books == 2)
            // A search that took the index before the swap finishes on it.
            #expect(try await Self.titles(before) == #"{"title":"Dune"}"#)

            try Self.write(#"[{"title": "Dune"}, {"title": 12}]"#, to: directory)
            guard case .rejected(let error) = files.reload() else {
                Issue.record("a bad edit was served")
                return
            }
            #expect(error.description.hasSuffix("catalog.json:1:31: [1].title: expected a string, found the number 12"))
            #expect(files.version == 2)
            #expect(try await Self.titles(files) == #"{"title":"Dune"},{"title":"Emma","year":1815}"#)
            #expect(files.reload() == .unchanged, "the same bad file is not read twice")
            #expect(messages.lines.filter { $0.hasPrefix("Kept the library's data at version 2:") }.count == 1)

            try Self.write(#"[{"title": "Persuasion"}]"#, to: directory)
            #expect(files.reload() == .reloaded(version: 3))
            #expect(try await Self.titles(files) == #"{"title":"Persuasion"}"#)
            #expect(
                messages.lines.last
                    == "The library's data is at version 3: 1 libraries, 1 books, from \(directory.path)."
            )
        }
    }

    @Test func aFileReplacedByARenameOrRemovedIsNoticed() async throws {
        try await Self.withDirectory(catalog: #"[{"title": "Dune"}]"#) { directory in
            let files = try ReloadingLibrary(directory: directory)
            // Same size, written aside and renamed over the file, as many editors save.
            let aside = directory.appendingPathComponent(".catalog.json.swp")
            try Data(#"[{"title": "Emma"}]"#.utf8).write(to: aside)
            #expect(rename(aside.path, directory.appendingPathComponent("catalog.json").path) == 0)
            #expect(files.reload() == .reloaded(version: 2))
            #expect(try await Self.titles(files) == #"{"title":"Emma"}"#)

            try FileManager.default.removeItem(at: directory.appendingPathComponent("locations.json"))
            guard case .rejected(let error) = files.reload() else {
                Issue.record("a missing file was served")
                return
            }
            #expect(error.problem.hasPrefix("no such file"))
            #expect(files.health().locations == 1)
            #expect(files.reload(force: true) != .unchanged, "forced, the files are read again")
        }
    }

    /// Files behind symbolic links, switched as a Kubernetes ConfigMap switches them; and a
    /// pipe put in a file's place is refused, not opened.
    @Test func linkedFilesAreFollowedAndOnlyRegularFilesRead() async throws {
        try await Self.withDirectory(catalog: #"[{"title": "Dune"}]"#) { directory in
            let manager = FileManager.default
            let first = directory.appendingPathComponent("..v1")
            try manager.createDirectory(at: first, withIntermediateDirectories: true)
            try manager.moveItem(
                at: directory.appendingPathComponent("catalog.json"),
                to: first.appendingPathComponent("catalog.json")
            )
            try manager.createSymbolicLink(
                atPath: directory.appendingPathComponent("catalog.json").path,
                withDestinationPath: "..v1/catalog.json"
            )
            let files = try ReloadingLibrary(directory: directory)
            #expect(files.reload() == .unchanged)

            let second = directory.appendingPathComponent("..v2")
            try manager.createDirectory(at: second, withIntermediateDirectories: true)
            try Data(#"[{"title": "Dune"}]"#.utf8).write(to: second.appendingPathComponent("catalog.json"))
            try manager.createSymbolicLink(
                atPath: directory.appendingPathComponent(".next").path,
                withDestinationPath: "..v2/catalog.json"
            )
            #expect(
                rename(
                    directory.appendingPathComponent(".next").path,
                    directory.appendingPathComponent("catalog.json").path
                ) == 0
            )
            #expect(await files.reloaded() == .reloaded(version: 2), "the same bytes, another file")

            let pipe = directory.appendingPathComponent("locations.json")
            try manager.removeItem(at: pipe)
            #expect(mkfifo(pipe.path, 0o600) == 0)
            guard case .rejected(let error) = await files.reloaded() else {
                Issue.record("a pipe was read")
                return
            }
            #expect(error.problem == "is not a regular file: a data file must be one")
            #expect(files.health().locations == 1)
        }
    }

    /// `run()` notices an edit by itself: the test waits for the log line, not for time.
    @Test func runningNoticesAnEdit() async throws {
        try await Self.withDirectory(catalog: #"[{"title": "Dune"}]"#) { directory in
            let messages = LogCollector()
            let files = try ReloadingLibrary(
                directory: directory,
                pollInterval: .milliseconds(20),
                logger: messages.logger
            )
            try await withThrowingTaskGroup { group in
                group.addTask { try await files.run() }
                try Self.write(#"[{"title": "Emma"}, {"title": "Dune"}]"#, to: directory)
                await messages.wait { $0.hasPrefix("The library's data is at version 2") }
                group.cancelAll()
            }
            #expect(try await Self.titles(files) == #"{"title":"Dune"},{"title":"Emma"}"#)
        }
    }
}

/// Log messages, kept for a test, which can wait for one to arrive.
final class LogCollector: Sendable {
    private struct State {
        var lines: [String] = []
        var waiters: [(match: @Sendable (String) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    var lines: [String] { state.withLock { $0.lines } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(collector: self) }
    }

    func append(_ line: String) {
        let ready = state.withLock { state in
            state.lines.append(line)
            let ready = state.waiters.filter { $0.match(line) }
            state.waiters.removeAll { $0.match(line) }
            return ready.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once a message matching `match` has been logged.
    func wait(for match: @escaping @Sendable (String) -> Bool) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.lines.contains(where: match) { return true }
                state.waiters.append((match, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    private struct Handler: LogHandler {
        let collector: LogCollector
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            collector.append(event.message.description)
        }
    }
}
