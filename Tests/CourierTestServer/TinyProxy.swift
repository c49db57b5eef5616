import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP proxy for the tests: Debian's `tinyproxy`, on a free port of 127.0.0.1, in the
/// foreground, stopped by its pid when the test's body ends.
///
/// ```swift
/// try await TinyProxy.withRunning(credentials: ("me", "secret")) { proxy in
///     // send through proxy.url
/// }
/// ```
public struct TinyProxy: Sendable {
    /// The port it listens on.
    public let port: Int
    /// `http://[user:password@]127.0.0.1:port`.
    public let url: String

    /// Whether `tinyproxy` is installed (`.ci/run` installs it).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: program) }

    private static let program = "/usr/bin/tinyproxy"

    /// Starts a proxy, runs `body`, and stops the proxy.
    ///
    /// - Parameters:
    ///   - credentials: The user name and password the proxy asks for (`BasicAuth`), if any.
    ///   - connectPorts: The ports `CONNECT` may reach; any when `nil`. `[443]` is how Debian's
    ///     own configuration ships: a tunnel to any other port is refused with 403.
    public static func withRunning<Result: Sendable>(
        credentials: (user: String, password: String)? = nil,
        connectPorts: [Int]? = nil,
        _ body: (TinyProxy) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tinyproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = ["Listen 127.0.0.1", "Allow 127.0.0.1", "Timeout 60", "MaxClients 200", "LogLevel Info"]
        if let credentials { lines.append("BasicAuth \(credentials.user) \(credentials.password)") }
        for port in connectPorts ?? [] { lines.append("ConnectPort \(port)") }
        let configuration = lines
        let started = try await Self.onThread { try Self.start(configuration, in: directory) }
        let userInfo = credentials.map { "\($0.user):\($0.password)@" } ?? ""
        let proxy = TinyProxy(port: started.port, url: "http://\(userInfo)127.0.0.1:\(started.port)")
        do {
            let result = try await body(proxy)
            await Self.stop(started.process)
            return result
        } catch {
            await Self.stop(started.process)
            throw error
        }
    }

    /// Starts tinyproxy with the configuration `lines` and a free port, trying another port
    /// when one is taken between the probe and tinyproxy's bind. tinyproxy says "Accepting
    /// connections" once it listens: that line is the event waited for (60 s allows for a
    /// loaded machine); its log is read on to the end so that it never blocks.
    private static func start(_ lines: [String], in directory: URL) throws -> (process: Process, port: Int) {
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let configuration = directory.appendingPathComponent("tinyproxy.conf")
            try (["Port \(port)"] + lines).joined(separator: "\n").write(
                to: configuration,
                atomically: true,
                encoding: .utf8
            )
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = ["-d", "-c", configuration.path]
            let log = Pipe()
            process.standardOutput = log
            process.standardError = log
            process.standardInput = FileHandle.nullDevice
            try process.run()
            if PipeReader.waitFor("Accepting connections", in: log.fileHandleForReading, timeout: .seconds(60)) {
                return (process, port)
            }
            // It exited (another process took the port first) or never said it listens.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "tinyproxy did not start"])
    }

    /// Stops tinyproxy by its pid. With SIGKILL: on SIGTERM it waits seconds for its
    /// connection threads, and a test's proxy has nothing to save.
    private static func stop(_ process: Process) async {
        _ = try? await onThread {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs blocking `work` on a new thread: `Process` waits for its children on dispatch
    /// threads, which on Linux are the concurrency pool's.
    private static func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
