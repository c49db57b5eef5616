import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier get --record` against a real server, then `courier replay` serving the cassette.
@Suite("courier get --record and courier replay", .loadLimited)
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
        #expect(unknown.stderr.contains("No recording of GET /nothing-here"), "\(unknown.stderr)")
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

    /// A client that sends its real `api_key` finds the recording made with it redacted, and a
    /// request with no recording is named without its secrets.
    @Test func replayMatchesThroughRedactionAndNeverEchoesASecret() async throws {
        let cassette = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cassette-\(UUID().uuidString).json"
        )
        defer { try? FileManager.default.removeItem(at: cassette) }
        try await TestServer.withRunning { server in
            let recorded = try await Courier.run(
                "get",
                server.url("/json?api_key=first-secret&page=1").absoluteString,
                "--record",
                cassette.path
            )
            #expect(recorded.status == 0)
        }
        #expect(!(try String(contentsOf: cassette, encoding: .utf8)).contains("first-secret"))
        let replay = try await CourierService.start(command: ["replay", cassette.path, "--port", "0"])
        let found = try await Courier.run("get", replay.url.absoluteString + "/json?api_key=another-secret&page=1")
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("Dune"))
        let missing = try await Courier.run("get", replay.url.absoluteString + "/json?api_key=third-secret&page=2")
        #expect(missing.status == 4)
        #expect(missing.stderr.contains("No recording of GET /json?api_key=REDACTED&page=2"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("third-secret"))
        #expect(await replay.stop(with: SIGINT).status == 0)
    }

    @Test func aCassetteWithAnImpossibleStatusIsAUsageError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-status-\(UUID().uuidString).json")
        let text =
            #"{"version":1,"interactions":[{"request":{"method":"GET","url":"https://a.test/x","headers":[]},"response":{"status":42,"headers":[]}}]}"#
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Courier.run("replay", file.path, "--port", "0")
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "courier: Cassette \(file.path) has an impossible status in entry 1 (GET https://a.test/x): 42 is not a final HTTP status (200…999).\n"
        )
    }

    /// The status line and fields with the `Date` line left out: it is the only one that changes.
    static func withoutDate(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Date: ") }
            .joined(separator: "\n")
    }
}
