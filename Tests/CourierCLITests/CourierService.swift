import CourierTestServer
import Foundation
import Synchronization

/// A `courier` server command (`serve`, `replay`) running in the background on a free port of
/// 127.0.0.1: the address is read from its first line of output.
// @unchecked: `Process` and `Pipe` are not marked Sendable. All three are assigned once in
// `init` and never replaced; afterwards standard error is read by one thread started in `init`
// and standard output only by `stop` (once, on one thread), and `deinit` terminates, so no two
// threads use one of them at the same time.
final class CourierService: @unchecked Sendable {
    /// The address the service printed on its first line.
    let url: URL
    /// What it printed before it served: the lines up to the one that says how to stop it.
    let banner: String
    private let process: Process
    private let output: Pipe
    private let errors: Pipe
    /// Standard error, read as it comes from the start: a server that logs more than a pipe
    /// holds (64 KiB) would otherwise block on its next log line, in the middle of a test.
    private let errorText = Drained()

    /// Starts `courier serve --port 0` with `arguments` and waits for its banner.
    static func start(_ arguments: [String] = []) async throws -> CourierService {
        try await start(command: ["serve", "--port", "0"] + arguments)
    }

    /// Starts `courier` with `command` (which must listen on a free port) and waits for its
    /// banner; `environment` is added to the test's own.
    static func start(command: [String], environment: [String: String] = [:]) async throws -> CourierService {
        let executable = try Courier.executable()
        return try await withCheckedThrowingContinuation { continuation in
            // Reading blocks: do it on a thread of its own, away from the concurrency pool.
            Thread {
                continuation.resume(with: Result { try CourierService(executable, command, environment) })
            }.start()
        }
    }

    private init(_ executable: URL, _ arguments: [String], _ environment: [String: String]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = Courier.environment(environment)
        output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        errorText.read(errors.fileHandleForReading)
        var lines: [String] = []
        repeat {
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
                line.append(first)
            }
            lines.append(String(decoding: line, as: UTF8.self))
        } while lines.count < 20 && !lines[lines.count - 1].contains("Ctrl-C") && !lines[lines.count - 1].isEmpty
        let text = lines[0]
        guard let range = text.range(of: #"https?://[^ /]+:[0-9]+"#, options: .regularExpression),
            let url = URL(string: String(text[range]))
        else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "courier printed: \(text)"])
        }
        self.banner = lines.joined(separator: "\n")
        self.url = url
    }

    /// Waits until the service has written `text` to standard error (a log line it writes when
    /// something happens), or its standard error has ended, or `limit` has passed — the limit is
    /// only a margin, so that a missing line fails the test rather than hanging it.
    ///
    /// - Returns: Whether the text was written.
    @discardableResult
    func waitForLog(_ text: String, limit: Duration = .seconds(60)) async -> Bool {
        await errorText.wait(for: Data(text.utf8), limit: limit)
    }

    /// Whether the service has written `text` to standard error so far.
    func hasLogged(_ text: String) -> Bool {
        errorText.contains(Data(text.utf8))
    }

    /// What a thread has read from a pipe, and whether it has reached the end; tasks can wait
    /// for text to arrive.
    private final class Drained: Sendable {
        private struct State {
            var text = Data()
            var isEnded = false
            var waiters: [(text: Data, continuation: CheckedContinuation<Bool, Never>)] = []
        }

        private let state = Mutex(State())
        private let ended = DispatchSemaphore(value: 0)

        func read(_ handle: FileHandle) {
            Thread { [self] in
                PipeReader.readChunks(handle) { chunk in
                    let ready = state.withLock { state in
                        state.text.append(chunk)
                        let text = state.text
                        return Self.take(from: &state) { text.range(of: $0) != nil }
                    }
                    for continuation in ready { continuation.resume(returning: true) }
                }
                let rest = state.withLock { state in
                    state.isEnded = true
                    return Self.take(from: &state) { _ in true }
                }
                for continuation in rest { continuation.resume(returning: false) }
                ended.signal()
            }.start()
        }

        /// Removes and returns the waiters whose text `isDone`.
        private static func take(
            from state: inout State,
            where isDone: (Data) -> Bool
        ) -> [CheckedContinuation<Bool, Never>] {
            let (done, waiting) = (state.waiters.filter { isDone($0.text) }, state.waiters.filter { !isDone($0.text) })
            state.waiters = waiting
            return done.map(\.continuation)
        }

        func contains(_ text: Data) -> Bool {
            state.withLock { $0.text.range(of: text) != nil }
        }

        func wait(for text: Data, limit: Duration) async -> Bool {
            let waiter = Task {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let answer: Bool? = state.withLock { state in
                        if state.text.range(of: text) != nil { return true }
                        if state.isEnded { return false }
                        state.waiters.append((text, continuation))
                        return nil
                    }
                    if let answer { continuation.resume(returning: answer) }
                }
            }
            // Past the margin, the waiter is released as if the pipe had ended. Nothing is ordered
            // by this: the line is awaited as it arrives, and this only bounds a missing one.
            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                let late = state.withLock { state in Self.take(from: &state) { $0 == text } }
                for continuation in late { continuation.resume(returning: false) }
            }
            return await waiter.value
        }

        /// Everything, once the pipe has ended (blocks until then).
        func all() -> Data {
            ended.wait()
            ended.signal()
            return state.withLock { $0.text }
        }
    }

    /// Sends `signal`, then returns the exit status and the rest of the output.
    /// Sends `signal` to the service, which goes on running.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    func stop(with signal: Int32 = SIGTERM) async -> Courier.Result {
        kill(process.processIdentifier, signal)
        return await withCheckedContinuation { continuation in
            Thread { [self] in
                let stdout = String(decoding: PipeReader.readAll(output.fileHandleForReading), as: UTF8.self)
                let stderr = String(decoding: errorText.all(), as: UTF8.self)
                process.waitUntilExit()
                continuation.resume(
                    returning: Courier.Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
                )
            }.start()
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
