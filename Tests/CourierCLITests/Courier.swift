import CourierTestServer
import Foundation
import Synchronization

@testable import CourierCLI

/// Runs `courier`: in this process (``CourierCommand/run(_:context:)``, with the environment and
/// streams of a ``CommandContext``), or as the built binary where a test needs a process of its
/// own — a working directory, a signal, a library that reads the real environment.
enum Courier {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: String...) async throws -> Result {
        try await run(arguments)
    }

    /// Runs `courier` with `arguments` in this process, or as a process of its own when it
    /// runs `in` a directory or `asProcess` is set.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        in directory: URL? = nil,
        asProcess: Bool = false
    ) async throws -> Result {
        if directory == nil, !asProcess {
            let context = CommandContext(environment: Self.environment(environment))
            let status = await CourierCommand.run(arguments, context: context)
            return Result(
                status: status,
                stdout: String(decoding: context.output, as: UTF8.self),
                stderr: String(decoding: context.errors, as: UTF8.self)
            )
        }
        return try await runProcess(arguments, environment: environment, in: directory)
    }

    /// Runs the built binary. The process is started, read and awaited on threads of its own:
    /// blocking a dispatch thread would starve the Swift concurrency pool that the loopback
    /// server's handlers run on (on Linux they share threads).
    static func runProcess(
        _ arguments: [String],
        environment: [String: String] = [:],
        in directory: URL? = nil
    ) async throws -> Result {
        let executable = try executable()
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    returning: runBlocking(executable, arguments, environment: environment, directory: directory)
                )
            }
            thread.start()
        }
    }

    /// This process's environment without TMDB credentials, proxies and locale (a developer's
    /// own must not change what the tests see), plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TMDB_ACCESS_TOKEN"] = nil
        environment["TMDB_API_KEY"] = nil
        for name in [
            "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
            "LC_ALL", "LC_MESSAGES",
        ] {
            environment[name] = nil
        }
        // A locale without a country: the store is searched as its default.
        environment["LANG"] = "C.UTF-8"
        return environment.merging(extra) { _, new in new }
    }

    private static func runBlocking(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String],
        directory: URL?
    ) -> Result {
        let process = Process()
        process.executableURL = executable
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = arguments
        process.environment = Self.environment(environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return Result(status: -1, stdout: "", stderr: "could not start \(executable.path): \(error)")
        }
        // Both pipes are drained at once so that neither can fill up and stall the child.
        let stderrBox = ErrorText()
        let stderrReader = Thread {
            stderrBox.set(String(decoding: PipeReader.readAll(errors.fileHandleForReading), as: UTF8.self))
        }
        stderrReader.start()
        let stdout = String(decoding: PipeReader.readAll(output.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderrBox.wait())
    }

    /// Text handed over from the stderr reader thread.
    private final class ErrorText: Sendable {
        private let text = Mutex("")
        private let done = DispatchSemaphore(value: 0)

        func set(_ value: String) {
            text.withLock { $0 = value }
            done.signal()
        }

        func wait() -> String {
            done.wait()
            return text.withLock { $0 }
        }
    }

    /// The `courier` binary next to the test bundle, in the same build directory.
    static func executable() throws -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("courier")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "courier (build it with swift build)"])
    }
}
