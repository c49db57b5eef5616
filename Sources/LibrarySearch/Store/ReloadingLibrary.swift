public import Foundation
public import Logging
import Synchronization

/// A ``Library`` served from a data directory and read again when its files change, as the
/// chapter's service re-read its files so that an edit showed at once.
///
/// ```swift
/// let library = try ReloadingLibrary(directory: URL(fileURLWithPath: "my-library"), logger: logger)
/// // while serving: try await library.run() notices edits; library.reload() reads the files now.
/// ```
///
/// - **Checked, then swapped.** New files are read and checked as at start (``DataFileError``)
///   and indexed aside; only then does the new index replace the old, in one step. A bad edit
///   keeps the last good data, and the log says which file, where, and what is wrong, once per
///   edit.
/// - **One index per search.** Each search takes the index of the moment it starts and
///   finishes on it, whatever is swapped meanwhile.
/// - **Versioned.** Each swap raises ``version`` (reported by `/health`); a page's entity tag
///   is a hash of its bytes and total, so it changes when what it shows changes.
/// - **Noticed by polling.** ``run()`` looks at both files' size, modification time and
///   identity every ``pollInterval`` (a file replaced by a rename counts, and a symbolic link
///   is followed), which works on every file system, network ones included;
///   ``reloaded(force:)`` reads them at once (for `SIGHUP`), on a thread of its own. Only
///   regular files are read.
public final class ReloadingLibrary: LibraryStore {
    /// The directory holding `locations.json` and `catalog.json`.
    public let directory: URL
    /// How often ``run()`` looks for changed files.
    public let pollInterval: Duration
    private let logger: Logger
    private let state: Mutex<State>
    /// Held while the files are read: one reload at a time, so an older read never replaces a
    /// newer one. Searches never take it.
    private let reloading = Mutex(())

    private struct State {
        var library: Library
        var version: Int64
        /// The files as they were when last read, good or not.
        var signature: [FileSignature?]
    }

    /// What a reload did.
    public enum Outcome: Sendable, Equatable {
        /// The files had not changed since they were last read.
        case unchanged
        /// The files were read, checked and are served from now on, at this version.
        case reloaded(version: Int64)
        /// The files were read but are not valid: the last good data is still served.
        case rejected(DataFileError)
    }

    /// Reads and indexes `directory`'s files.
    ///
    /// - Throws: ``DataFileError`` when the files cannot be served: at start there is no last
    ///   good data to keep.
    public init(
        directory: URL,
        pollInterval: Duration = .seconds(1),
        logger: Logger = Logger(label: "courier.library") { _ in SwiftLogNoOpLogHandler() }
    ) throws(DataFileError) {
        self.directory = directory
        self.pollInterval = pollInterval
        self.logger = logger
        let signature = Self.signature(of: directory)
        let library = Library(try LibraryData.load(from: directory))
        self.state = Mutex(State(library: library, version: 1, signature: signature))
    }

    /// The index searches use now.
    public var library: Library { state.withLock { $0.library } }

    /// The data's version: 1 at start, raised by each reload that swapped the index.
    public var version: Int64 { state.withLock { $0.version } }

    /// Reads the files if they changed since they were last read (or always, with `force`),
    /// and swaps the index if they are valid.
    ///
    /// This reads files and builds an index on the calling thread: from async code, call
    /// ``reloaded(force:)``. A reload already running makes this one return `.unchanged`.
    @discardableResult
    public func reload(force: Bool = false) -> Outcome {
        reloading.withLockIfAvailable { _ in reloadFiles(force: force) } ?? .unchanged
    }

    /// ``reload(force:)`` on a thread of its own, so that reading the files and indexing them
    /// never holds one of the threads async code runs on.
    @discardableResult
    public func reloaded(force: Bool = false) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.reload(force: force)) }.start()
        }
    }

    private func reloadFiles(force: Bool) -> Outcome {
        let signature = Self.signature(of: directory)
        let known = state.withLock { $0.signature }
        guard force || signature != known else { return .unchanged }
        let data: LibraryData
        do throws(DataFileError) {
            // Only regular files are opened: a pipe or a device put in a file's place would
            // block the read for ever.
            for (name, file) in zip([LibraryData.locationsFile, LibraryData.catalogFile], signature) {
                if let file, !file.isRegular {
                    throw DataFileError(
                        file: directory.appendingPathComponent(name).path,
                        problem: "is not a regular file: a data file must be one"
                    )
                }
            }
            data = try LibraryData.load(from: directory)
        } catch {
            state.withLock { $0.signature = signature }
            let version = self.version
            logger.error(
                "Kept the library's data at version \(version): \(error). Fix the file; it is read again when it changes."
            )
            return .rejected(error)
        }
        // Indexed outside the lock: searches go on meanwhile on the old index.
        let library = Library(data)
        let version = state.withLock { state in
            state.library = library
            state.version += 1
            state.signature = signature
            return state.version
        }
        logger.info(
            "The library's data is at version \(version): \(library.locations.count) libraries, \(library.catalog.count) books, from \(directory.path)."
        )
        return .reloaded(version: version)
    }

    // MARK: - LibraryStore

    /// `memory`.
    public var mode: String { "memory" }

    /// A page of the index of this moment.
    public func search(_ list: LibraryList, prefix: String, limit: Int, offset: Int) -> LibraryPage {
        library.search(list, prefix: prefix, limit: limit, offset: offset)
    }

    /// The counts and version of the index of this moment.
    public func health() -> LibraryHealth {
        let (library, version) = state.withLock { ($0.library, $0.version) }
        return LibraryHealth(
            isReachable: nil,
            locations: library.locations.count,
            books: library.catalog.count,
            version: version
        )
    }

    /// Looks for changed files every ``pollInterval`` until the task is cancelled.
    public func run() async throws {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                return
            }
            await reloaded()
        }
    }

    // MARK: - Files

    /// What identifies a file's contents without reading them: size, modification time, and
    /// which file it is (an editor's save by rename makes another), of the file a symbolic
    /// link leads to (a Kubernetes ConfigMap swaps the links' target), and where it leads.
    struct FileSignature: Equatable {
        var path: String
        var size: UInt64
        var modified: Date
        var identity: UInt64
        var isRegular: Bool
    }

    /// The signatures of the two files (`nil` for one that cannot be looked at).
    static func signature(of directory: URL) -> [FileSignature?] {
        [LibraryData.locationsFile, LibraryData.catalogFile].map { name in
            let path = directory.appendingPathComponent(name).resolvingSymlinksInPath().path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            return FileSignature(
                path: path,
                size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
                modified: attributes[.modificationDate] as? Date ?? .distantPast,
                identity: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0,
                isRegular: attributes[.type] as? FileAttributeType == .typeRegular
            )
        }
    }
}
