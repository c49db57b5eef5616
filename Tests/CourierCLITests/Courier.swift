import Foundation

/// Runs the built `courier` binary.
enum Courier {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: String...) async throws -> Result {
        try await run(arguments)
    }

    /// Runs `courier` with `arguments`, waiting without blocking a thread (the loopback server
    /// shares the cooperative pool with the test).
    static func run(_ arguments: [String]) async throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        async let stdout = read(output)
        async let stderr = read(errors)
        let status: Int32 = await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(returning: -1)
            }
        }
        return Result(status: status, stdout: await stdout, stderr: await stderr)
    }

    private static func read(_ pipe: Pipe) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
    }

    /// The `courier` binary next to the test bundle, in the same build directory.
    private static func executable() throws -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("courier")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "courier (build it with swift build)"])
    }
}
