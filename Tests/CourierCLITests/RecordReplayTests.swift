import CourierTestServer
import Foundation
import Testing

/// `courier get --record` against a real server, then `courier replay` serving the cassette.
@Suite("courier get --record and courier replay")
struct RecordReplayTests {
    @Test func aRecordedCassetteReplaysIdentically() async throws {
        let cassette = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cassette-\(UUID().uuidString).json"
        )
        defer { try? FileManager.default.removeItem(at: cassette) }
        let originals = try await TestServer.withRunning { server in
            var originals: [String: Courier.Result] = [:]
            for path in ["/json", "/catalog?q=du", "/missing"] {
                let url = server.url(path).absoluteString
                originals[path] = try await Courier.run(
                    "get",
                    url,
                    "-i",
                    "--record",
                    cassette.path,
                    "-H",
                    "Authorization: Bearer s3cret"
                )
            }
            return originals
        }
        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(!text.contains("s3cret"), "credentials are redacted when recorded")
        #expect(text.contains("\"REDACTED\""))

        let replay = try await CourierService.start(command: ["replay", cassette.path, "--port", "0"])
        for (path, original) in originals {
            let replayed = try await Courier.run("get", replay.url.absoluteString + path, "-i")
            #expect(replayed.status == original.status, "\(path)")
            #expect(Self.withoutDate(replayed.stdout) == Self.withoutDate(original.stdout), "\(path)")
        }
        let unknown = try await Courier.run("get", replay.url.absoluteString + "/nothing-here")
        #expect(unknown.status == 4)
        #expect(unknown.stderr.contains("courier replay: no recording of GET /nothing-here"))
        #expect(await replay.stop(with: SIGINT).status == 0)
    }

    @Test func aFileThatIsNotACassetteIsAUsageError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "not-a-cassette-\(UUID().uuidString).json"
        )
        try Data("[1, 2]".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Courier.run("replay", file.path, "--port", "0")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("courier: Cassette \(file.path) is not a cassette: "))
    }

    /// The status line and fields with the `Date` line left out: it is the only one that changes.
    static func withoutDate(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Date: ") }
            .joined(separator: "\n")
    }
}
