import Foundation
import Synchronization

/// What a command reads and writes besides its arguments — the environment, standard input,
/// standard output and standard error — when it runs inside another program instead of as
/// its own process: a test runs `courier` this way (``CourierCommand/run(_:context:)``) to
/// check what it prints and the status it returns without starting a process.
///
/// The context is task-local: commands running at once in one process each see their own.
/// Output written outside the command's task (a transport's event-loop thread) goes to the
/// process's own standard error.
final class CommandContext: Sendable {
    /// The context of the command running in this task; `nil` in the `courier` process itself.
    @TaskLocal static var current: CommandContext?

    /// The environment variables the command sees.
    let environment: [String: String]
    /// What the command reads from standard input.
    let input: Data
    private let streams = Mutex<(output: Data, errors: Data)>((Data(), Data()))

    /// A context with `environment` and `input` for standard input.
    init(environment: [String: String], input: Data = Data()) {
        self.environment = environment
        self.input = input
    }

    /// What the command wrote to standard output.
    var output: Data { streams.withLock { $0.output } }
    /// What the command wrote to standard error.
    var errors: Data { streams.withLock { $0.errors } }

    /// Keeps `data` as written to standard error, or else standard output.
    func write(_ data: Data, toErrors: Bool) {
        streams.withLock { streams in
            if toErrors { streams.errors.append(data) } else { streams.output.append(data) }
        }
    }

    /// The environment of the running command: the context's, else the process's.
    static var environment: [String: String] {
        current?.environment ?? ProcessInfo.processInfo.environment
    }

    /// Whether standard output (`descriptor` 1) or standard error (2) is a terminal: never
    /// inside a context.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        current == nil && isatty(descriptor) == 1
    }

    /// All of standard input.
    static func readInput() throws -> Data {
        if let current { return current.input }
        return try FileHandle.standardInput.readToEnd() ?? Data()
    }
}
