import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

@Suite("courier download", .loadLimited)
struct DownloadCommandTests {
    static func expected(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

    static func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-dl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    @Test func savesTheFileAndSaysSo() async throws {
        try await Self.withDirectory { directory in
            try await TestServer.withRunning { server in
                let file = directory.appendingPathComponent("one.bin")
                let result = try await Courier.run(
                    "download",
                    server.url("/file/one?bytes=1500000").absoluteString,
                    "-o",
                    file.path
                )
                #expect(result.status == 0)
                #expect(result.stderr == "Saved 1.5 MB to \(file.path).\n")
                #expect(try Data(contentsOf: file) == Self.expected(1_500_000))
            }
        }
    }

    @Test func runningAgainResumesAnInterruptedDownload() async throws {
        try await Self.withDirectory { directory in
            try await TestServer.withRunning { server in
                let file = directory.appendingPathComponent("two.bin")
                let url = server.url("/file/two?bytes=3000000&drop_once=1000000").absoluteString
                let first = try await Courier.run("download", url, "-o", file.path)
                #expect(first.status == 3)
                #expect(FileManager.default.fileExists(atPath: file.path + ".download"))
                let second = try await Courier.run("download", url, "-o", file.path)
                #expect(second.status == 0)
                #expect(second.stderr.hasPrefix("Saved 3.0 MB to \(file.path) (resumed after "))
                #expect(try Data(contentsOf: file) == Self.expected(3_000_000))
                #expect(await server.events.hitCount("two:range") == 1)
            }
        }
    }

    @Test func aMissingFileIsAClientError() async throws {
        try await Self.withDirectory { directory in
            try await TestServer.withRunning { server in
                let file = directory.appendingPathComponent("three.bin")
                let result = try await Courier.run(
                    "download",
                    server.url("/missing").absoluteString,
                    "-o",
                    file.path,
                    "-q"
                )
                #expect(result.status == 4)
                #expect(result.stderr.hasPrefix("courier: GET \(server.url("/missing")) returned 404 Not Found"))
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            }
        }
    }
}
