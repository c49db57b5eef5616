import CourierTestServer
import Foundation
import Synchronization

/// A `courier` command running in the background whose output is read as it comes, for
/// commands that run until stopped (`movies watch`) or are killed on purpose.
// @unchecked: `Process` is not marked Sendable. It is configured and started in `init` and
// afterwards only signalled and awaited; the output is behind a Mutex.
final class BackgroundCourier: @unchecked Sendable {
    private let process = Process()
    private let output = Output()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `courier` with `arguments` and TMDB credentials only from `environment`.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = try Courier.executable()
        process.arguments = arguments
        process.environment = Courier.environment(environment)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        Thread { [output, finished] in
            PipeReader.readChunks(reader) { chunk in
                output.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
            finished.signal()
        }.start()
    }

    /// Everything printed so far, standard output and error together.
    var text: String { output.text.withLock { $0 } }

    /// Waits until the output satisfies `condition`, or throws after `timeout`.
    func waitForOutput(
        timeout: Duration = .seconds(10),
        _ condition: @Sendable (String) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(text) {
            guard ContinuousClock.now < deadline else { throw TestServerError.timedOut("courier printed: \(text)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Sends `signal` and waits for the process to end; returns its status (or signal number).
    @discardableResult
    func stop(with signal: Int32) async -> Int32 {
        kill(process.processIdentifier, signal)
        return await waitForExit()
    }

    /// Waits for the process to end by itself and its output to be read; returns its status.
    func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { [process, finished] in
                process.waitUntilExit()
                finished.wait()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
    }

    /// The output so far, shared with the thread that reads it.
    private final class Output: Sendable {
        let text = Mutex("")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
