import Foundation
import GitWire

#if canImport(Glibc)
import Glibc
#endif

/// A git credential helper, asked as git asks it (gitcredentials(7)): the command is run by
/// `/bin/sh` with `get` added, told `protocol=` and `host=` (and `username=` when the URL has
/// one) on its standard input, and answers `username=` and `password=` lines.
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
    ///   gives no password. Its answer is never shown: it holds the secret.
    func credential(for url: GitHTTPURL) async throws -> GitCredential {
        var question = "protocol=\(url.url.scheme ?? "https")\n"
        question += "host=\(url.url.host ?? "")\(url.url.port.map { ":\($0)" } ?? "")\n"
        if let username = url.username { question += "username=\(username)\n" }
        question += "\n"
        let answer = try await run(input: Data(question.utf8))
        var username = url.username
        var password: String?
        for line in String(decoding: answer, as: UTF8.self).split(whereSeparator: \.isNewline) {
            if line.hasPrefix("username=") { username = String(line.dropFirst(9)) }
            if line.hasPrefix("password=") { password = String(line.dropFirst(9)) }
        }
        guard let password, !password.isEmpty else {
            throw CommandFailure(
                "The credential helper '\(command)' gave no password for \(url.url.host ?? "the host").",
                status: .usage
            )
        }
        return GitCredential(username: username ?? GitCredential.tokenUsername, password: password)
    }

    /// Runs the helper on a thread of its own with `input`; its standard output.
    private func run(input: Data) async throws -> Data {
        let command = command
        let timeout = timeout
        let result: Result<Data, CommandFailure> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Self.runBlocking(command, input: input, timeout: timeout))
            }.start()
        }
        return try result.get()
    }

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
            return .failure(
                CommandFailure("Could not run the credential helper '\(command)': \(error).", status: .usage)
            )
        }
        try? inputPipe.fileHandleForWriting.write(contentsOf: input)
        try? inputPipe.fileHandleForWriting.close()
        // A helper that does not finish in time is stopped, which ends its output.
        let finished = DispatchSemaphore(value: 0)
        let pid = process.processIdentifier
        Thread {
            if finished.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) == .timedOut {
                kill(pid, SIGKILL)
            }
        }.start()
        var output = Data()
        var tooLong = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        let descriptor = outputPipe.fileHandleForReading.fileDescriptor
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                if output.count + count > longestAnswer {
                    tooLong = true
                } else {
                    output.append(contentsOf: buffer[..<count])
                }
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        process.waitUntilExit()
        finished.signal()
        if tooLong {
            return .failure(
                CommandFailure("The credential helper '\(command)' printed more than 64 KiB.", status: .usage)
            )
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            return .failure(
                CommandFailure(
                    "The credential helper '\(command)' failed (status \(process.terminationStatus)) or took longer "
                        + "than --deadline.",
                    status: .usage
                )
            )
        }
        return .success(output)
    }
}
