import Foundation
import GitWire

#if canImport(Glibc)
import Glibc
#endif

/// A git credential helper, asked as git asks it (gitcredentials(7)): the command is run by
/// `/bin/sh` with `get` added, told `protocol=` and `host=` (and `username=` when the URL has
/// one) on its standard input, and answers `username=` and `password=` lines.
///
/// The helper's answer holds the secret: it is never shown, nor is the command (an inline
/// helper may hold one too).
struct GitCredentialHelper {
    /// The command, as `credential.helper = !…` takes it.
    let command: String
    /// How long the helper may take (it may ask a person).
    let timeout: Duration

    /// The most a helper may print.
    static let longestAnswer = 64 << 10

    /// The helper's credential for `url`.
    ///
    /// - Throws: ``CommandFailure`` when the helper cannot be run, fails, takes too long, or
    ///   gives no password.
    func credential(for url: GitHTTPURL) async throws -> GitCredential {
        var host = url.url.host ?? ""
        if host.contains(":") { host = "[\(host)]" }  // an IPv6 address, as git writes it
        if let port = url.url.port { host += ":\(port)" }
        var question = "protocol=\(url.url.scheme ?? "https")\nhost=\(host)\n"
        if let username = url.username { question += "username=\(username)\n" }
        question += "\n"
        let answer = try await run(input: Data(question.utf8))
        var username = url.username
        var password: String?
        // Lines end with LF (a CR before it is dropped), as git reads them.
        for line in answer.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)
            if text.hasPrefix("username=") { username = String(text.dropFirst(9)) }
            if text.hasPrefix("password=") { password = String(text.dropFirst(9)) }
        }
        guard let password, !password.isEmpty else {
            throw CommandFailure("The credential helper gave no password for \(host).", status: .usage)
        }
        if let username, username.contains(":") || username.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw CommandFailure("The credential helper gave a user name that cannot be sent.", status: .usage)
        }
        return GitCredential(username: username ?? GitCredential.tokenUsername, password: password)
    }

    /// Runs the helper on a thread of its own with `input`; its standard output.
    private func run(input: Data) async throws -> Data {
        let (command, timeout) = (command, timeout)
        let result: Result<Data, CommandFailure> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Self.runBlocking(command, input: input, timeout: timeout))
            }.start()
        }
        return try result.get()
    }

    /// Runs the helper and reads what it prints until it exits, at most `timeout`: a helper
    /// still running then is killed with its process group, and a process it started and left
    /// running (keeping the pipe open) is not waited for.
    private static func runBlocking(_ command: String, input: Data, timeout: Duration) -> Result<Data, CommandFailure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " get"]
        process.environment = CommandContext.environment
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        do {
            try process.run()
        } catch {
            return .failure(CommandFailure("Could not run the credential helper: \(error).", status: .usage))
        }
        // Written on a thread of its own, so that a helper that never reads cannot hold this
        // one; SIGPIPE is blocked on that thread only, so a helper that exits without reading
        // ends the write with EPIPE, not this process.
        Thread {
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            try? inputPipe.fileHandleForWriting.write(contentsOf: input)
            try? inputPipe.fileHandleForWriting.close()
        }.start()
        let descriptor = outputPipe.fileHandleForReading.fileDescriptor
        let end = ContinuousClock.now.advanced(by: timeout)
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var outputEnded = false
        while process.isRunning || !outputEnded {
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else {
                if process.isRunning { stop(process) }
                return .failure(CommandFailure("The credential helper took longer than --deadline.", status: .usage))
            }
            guard !outputEnded else {
                // The output is closed but the helper runs on: wait for it, a little at a time.
                usleep(10_000)
                continue
            }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 50))
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, milliseconds)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    guard output.count + count <= longestAnswer else {
                        if process.isRunning { stop(process) }
                        return .failure(
                            CommandFailure("The credential helper printed more than 64 KiB.", status: .usage)
                        )
                    }
                    output.append(contentsOf: buffer[..<count])
                } else if count == 0 || errno != EINTR {
                    outputEnded = true
                }
            } else if ready == 0, !process.isRunning {
                // Exited, and nothing more to read now: what it left running may hold the pipe
                // open, and its answer is whole.
                break
            }
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            return .failure(
                CommandFailure("The credential helper failed (status \(process.terminationStatus)).", status: .usage)
            )
        }
        return .success(output)
    }

    /// Kills the helper, and its process group when it leads one (Foundation starts children
    /// in a group of their own on Linux), so that what it started goes too.
    private static func stop(_ process: Process) {
        let pid = process.processIdentifier
        if getpgid(pid) == pid { kill(-pid, SIGKILL) }
        kill(pid, SIGKILL)
    }
}
