import CourierTestServer
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Real repositories in a temporary directory, served by a real `git daemon` on a free port of
/// 127.0.0.1, stopped by its pid.
final class GitDaemon: @unchecked Sendable {
    // @unchecked: every property is set once in init and only read afterwards.
    let root: URL
    let port: Int
    private let daemon: Process

    static var isAvailable: Bool { GitRepositories.isAvailable }

    /// Sets up the repositories and starts the daemon on a thread of its own: `Process` waits
    /// for its children on dispatch threads, which on Linux are the concurrency pool's.
    static func start() async throws -> GitDaemon {
        try await onThread { try GitDaemon() }
    }

    /// Runs blocking `work` on a new thread.
    static func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("gitwire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try GitRepositories.make(in: root)
        // In the foreground, so that its pid is ours to stop (a --detach'ed daemon would also
        // keep the pipe Foundation watches its child's exit through).
        // git-daemon itself, not the `git daemon` wrapper: the wrapper's pid would not stop it.
        let execPath = try Self.git(["--exec-path"]).trimmingCharacters(in: .whitespacesAndNewlines)
        // A free port can be taken by another test between our probe and the daemon's bind: a
        // daemon that exits is started again on another port. With --verbose it says "Ready to
        // rumble" once it listens: that line is the event waited for (60 s allows for a loaded
        // machine), and its standard error is read on to the end so that it never blocks.
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let daemon = Process()
            daemon.executableURL = URL(fileURLWithPath: execPath).appendingPathComponent("git-daemon")
            daemon.arguments = [
                "--verbose", "--reuseaddr", "--base-path=\(root.path)", "--export-all", "--listen=127.0.0.1",
                "--port=\(port)", root.path,
            ]
            let errors = Pipe()
            daemon.standardOutput = FileHandle.nullDevice
            daemon.standardError = errors
            daemon.standardInput = FileHandle.nullDevice
            try daemon.run()
            _ = PipeReader.waitFor("Ready to rumble", in: errors.fileHandleForReading, timeout: .seconds(60))
            if daemon.isRunning, Self.canConnect(port) {
                self.port = port
                self.daemon = daemon
                return
            }
            if daemon.isRunning { daemon.terminate() }
        }
        try? FileManager.default.removeItem(at: root)
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "git daemon did not start"])
    }

    /// Stops the daemon by its pid (and the connections it forked) and removes the repositories.
    func stop() {
        guard daemon.isRunning else { return }
        let pid = daemon.processIdentifier
        kill(pid, SIGTERM)
        for _ in 0..<100 where daemon.isRunning { usleep(10_000) }
        if daemon.isRunning { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: root)
    }

    deinit {
        stop()
    }

    func url(_ repository: String) -> String { "git://127.0.0.1:\(port)/\(repository)" }

    /// `git ls-remote` with `arguments`, its standard output.
    func gitLsRemote(_ arguments: [String], protocolVersion: Int) throws -> String {
        try Self.git(["-c", "protocol.version=\(protocolVersion)", "ls-remote"] + arguments)
    }

    // MARK: - Processes and ports

    @discardableResult
    static func git(_ arguments: [String], input: String? = nil) throws -> String {
        try GitRepositories.git(arguments, input: input)
    }

    private static func canConnect(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}
