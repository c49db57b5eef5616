public import Foundation
import Synchronization

/// Real git repositories for the `ls-remote` tests, made with Debian's `git` in a directory of
/// the caller's: the same set behind `git daemon` and behind `git http-backend`.
public enum GitRepositories {
    /// Whether `git` is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/git") }

    /// Makes, in `root`: `full.git` (two branches, a lightweight, an annotated tag and a tag of
    /// a tag), `many.git` (3,000 more branches, packed), `detached.git` (`HEAD` an object id),
    /// `empty.git`, `shallow.git` (a depth-1 clone), `sha256.git` (SHA-256 object ids) and
    /// `odd.git` (`refs/stash` and `refs/notes/commits` beside the branches); each
    /// with the files of git's dumb protocol too (`info/refs`).
    public static func make(in root: URL) throws {
        let work = root.appendingPathComponent("work").path
        try git(["init", "-q", "-b", "main", work])
        try git(["-C", work] + identity + ["commit", "-q", "--allow-empty", "-m", "first"])
        try git(["-C", work] + identity + ["commit", "-q", "--allow-empty", "-m", "second"])
        try git(["-C", work, "branch", "feature"])
        try git(["-C", work, "tag", "light"])
        try git(["-C", work] + identity + ["tag", "-a", "annotated", "-m", "an annotated tag"])
        try git(["-C", work] + identity + ["tag", "-a", "tag-of-tag", "annotated", "-m", "a tag of a tag"])
        try git(["clone", "-q", "--bare", work, root.appendingPathComponent("full.git").path])

        let many = root.appendingPathComponent("many.git").path
        try git(["clone", "-q", "--bare", work, many])
        try addBranches(3000, to: URL(fileURLWithPath: many))

        let detached = root.appendingPathComponent("detached.git").path
        try git(["clone", "-q", "--bare", work, detached])
        let head = try git(["-C", work, "rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try Data((head + "\n").utf8).write(to: URL(fileURLWithPath: detached).appendingPathComponent("HEAD"))

        try git(["init", "-q", "--bare", "-b", "main", root.appendingPathComponent("empty.git").path])

        // Shallow: upload-pack follows the refs with "shallow <oid>" lines (protocol 0).
        let shallow = root.appendingPathComponent("shallow.git").path
        try git([
            "clone", "-q", "--bare", "--depth", "1", "file://" + root.appendingPathComponent("full.git").path, shallow,
        ])

        // SHA-256 object ids: 64 hex digits, announced as object-format=sha256.
        let sha256Work = root.appendingPathComponent("work-sha256").path
        try git(["init", "-q", "--object-format=sha256", "-b", "main", sha256Work])
        try git(["-C", sha256Work] + identity + ["commit", "-q", "--allow-empty", "-m", "first"])
        try git(["-C", sha256Work] + identity + ["tag", "-a", "v1", "-m", "an annotated tag"])
        try git(["clone", "-q", "--bare", sha256Work, root.appendingPathComponent("sha256.git").path])

        // Refs `--refs` leaves out although they are under refs/: one-level (stash) beside
        // notes and a branch.
        let odd = root.appendingPathComponent("odd.git").path
        try git(["clone", "-q", "--bare", work, odd])
        try git(["-C", odd, "update-ref", "refs/stash", head])
        try git(["-C", odd, "update-ref", "refs/notes/commits", head])

        for name in ["full", "many", "detached", "empty", "shallow", "sha256", "odd"] {
            try git(["-C", root.appendingPathComponent("\(name).git").path, "update-server-info"])
        }
    }

    /// Adds `count` branches (`refs/heads/branch-00000`…), all at `HEAD`, to the bare repository
    /// at `repository`, in its `packed-refs` file as a large repository keeps them: written
    /// whole, which takes a moment where creating the refs one by one takes seconds.
    public static func addBranches(_ count: Int, to repository: URL) throws {
        let head = try git(["-C", repository.path, "rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let existing = try git(["-C", repository.path, "for-each-ref", "--format=%(objectname) %(refname)"])
            .split(separator: "\n").map(String.init)
        let added = (0..<count).map { "\(head) refs/heads/branch-\(String(format: "%05d", $0))" }
        // Sorted by name, byte for byte, as git keeps them; without "peeled" in the header, git
        // peels the annotated tags itself.
        let lines = (existing + added).sorted {
            $0.utf8.dropFirst(head.utf8.count + 1).lexicographicallyPrecedes($1.utf8.dropFirst(head.utf8.count + 1))
        }
        let file = "# pack-refs with: sorted \n" + lines.joined(separator: "\n") + "\n"
        try Data(file.utf8).write(to: repository.appendingPathComponent("packed-refs"))
        try git(["-C", repository.path, "update-server-info"])
    }

    /// A committer for the commits and tags made here.
    private static let identity = ["-c", "user.email=t@example.test", "-c", "user.name=Tester"]

    /// Runs `git` with `arguments` and `input` on its standard input; its standard output.
    @discardableResult
    public static func git(
        _ arguments: [String],
        input: String? = nil,
        environment: [String: String]? = nil
    ) throws
        -> String
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let errors = Pipe()
        process.standardError = errors
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        if let input {
            try inputPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        // Standard error on a thread of its own, so that neither pipe can fill and block git.
        let errorText = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let data = PipeReader.readAll(errors.fileHandleForReading)
            errorText.withLock { $0 = data }
            errorsRead.signal()
        }.start()
        let data = PipeReader.readAll(output.fileHandleForReading)
        process.waitUntilExit()
        errorsRead.wait()
        guard process.terminationStatus == 0 else {
            throw GitCommandError(
                arguments: arguments,
                status: process.terminationStatus,
                standardError: String(decoding: errorText.withLock { $0 }, as: UTF8.self)
            )
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A `git` command that failed: its arguments, exit status and what it said.
public struct GitCommandError: Error, CustomStringConvertible {
    /// The arguments.
    public var arguments: [String]
    /// The exit status.
    public var status: Int32
    /// Its standard error.
    public var standardError: String

    /// `git <arguments> exited with <status>: <standard error>`.
    public var description: String {
        "git \(arguments.joined(separator: " ")) exited with \(status): \(standardError)"
    }
}
