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

    /// Without -o, a URL that spells a path (`..%2F`, `%2F…`, `%2E%2E`) still names one file in
    /// the working directory, and an existing file of that name is not replaced unless asked.
    @Test func aURLNeverNamesAFileOutsideTheWorkingDirectory() async throws {
        try await Self.withDirectory { directory in
            let inner = directory.appendingPathComponent("inner")
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
            let victim = directory.appendingPathComponent("victim.txt")
            try Data("mine".utf8).write(to: victim)
            let answers = (0..<5).map { ScriptedHTTPServer.json(#"{"n":\#($0)}"#) }
            try await ScriptedHTTPServer.withRunning(answers: answers) { server in
                func download(_ path: String, _ options: String...) async throws -> Courier.Result {
                    try await Courier.run(["download", server.url(path).absoluteString, "-q"] + options, in: inner)
                }
                #expect(try await download("/..%2Fvictim.txt").status == 0)
                #expect(try await download("/%2Ftmp%2F.profile").status == 0)
                #expect(try await download("/x/%2E%2E").status == 0)
                #expect(try String(contentsOf: victim, encoding: .utf8) == "mine")
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                        "inner", "victim.txt",
                    ]
                )
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: inner.path).sorted()
                        == ["_tmp_.profile", "_victim.txt", "index.html"]
                )
                #expect(
                    try String(contentsOf: inner.appendingPathComponent("_victim.txt"), encoding: .utf8) == #"{"n":0}"#
                )

                // The same name again: refused before anything is sent, then replaced when asked.
                let again = try await download("/..%2Fvictim.txt")
                #expect(again.status == 2)
                #expect(again.stderr.contains("_victim.txt exists already: give --overwrite to replace it"))
                #expect(server.requestLines.count == 3)
                #expect(try await download("/..%2Fvictim.txt", "--overwrite").status == 0)
                #expect(
                    try String(contentsOf: inner.appendingPathComponent("_victim.txt"), encoding: .utf8) == #"{"n":3}"#
                )

                // -o DIR saves into DIR under the URL's safe name.
                #expect(try await download("/a/..%2F..%2Fb.txt", "-o", directory.path).status == 0)
                #expect(
                    try String(contentsOf: directory.appendingPathComponent("_.._b.txt"), encoding: .utf8)
                        == #"{"n":4}"#
                )
            }
        }
    }
}
