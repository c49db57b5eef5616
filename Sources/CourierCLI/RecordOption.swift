import ArgumentParser
import CourierCassettes
import Foundation

/// `--record CASSETTE`: the exchanges a command makes, kept for `courier replay`.
struct RecordOption: ParsableArguments {
    @Option(
        help:
            "Record the exchanges (credentials redacted) in this cassette file, adding to it if it exists; serve it with courier replay."
    )
    var record: String?

    /// A recorder adding to the cassette, if one was asked for.
    func makeRecorder() throws -> CassetteRecorder? {
        guard let record else { return nil }
        let file = URL(fileURLWithPath: record)
        guard FileManager.default.fileExists(atPath: file.path) else { return CassetteRecorder() }
        do {
            return CassetteRecorder(appendingTo: try Cassette.load(from: file))
        } catch {
            throw CommandFailure("\(error.description) Pass a new file or a cassette courier wrote.", status: .usage)
        }
    }

    /// Runs `body`, then saves what `recorder` recorded, whatever the outcome.
    func recording<Result>(_ recorder: CassetteRecorder?, _ body: () async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body()
        } catch {
            try save(recorder)
            throw error
        }
        try save(recorder)
        return result
    }

    private func save(_ recorder: CassetteRecorder?) throws {
        guard let recorder, let record else { return }
        do {
            try recorder.cassette.write(to: URL(fileURLWithPath: record))
        } catch {
            throw CommandFailure(error.description, status: .usage)
        }
    }
}
