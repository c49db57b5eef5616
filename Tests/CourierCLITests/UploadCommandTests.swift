import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier upload` and `courier get -d @FILE / --data-binary @FILE`: files streamed as bodies.
@Suite("courier upload", .loadLimited)
struct UploadCommandTests {
    @Test func uploadsAFileAndPrintsTheAnswer() async throws {
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = try Self.write(bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer.withRunning { server in
            let result = try await Courier.run("upload", server.url("/upload").absoluteString, file.path)
            #expect(result.status == 0)
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: Data(result.stdout.utf8))
            #expect(receipt.bytes == bytes.count)
            #expect(receipt.sha256 == UploadReceipt.sha256(of: bytes))
            #expect(receipt.contentLength == "\(bytes.count)")
            #expect(result.stderr.hasPrefix("Sent 3.1 MB in "))
            #expect(result.stderr.hasSuffix(" (HTTP 200).\n"))
            // A symbolic link to the file is the file.
            let link = file.appendingPathExtension("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
            defer { try? FileManager.default.removeItem(at: link) }
            let linked = try await Courier.run("upload", server.url("/upload").absoluteString, link.path, "-q")
            #expect(try JSONDecoder().decode(UploadReceipt.self, from: Data(linked.stdout.utf8)).bytes == bytes.count)
        }
    }

    @Test func refusesAMissingFileAndOtherMethods() async throws {
        let missing = try await Courier.run("upload", "http://127.0.0.1:9/upload", "/nonexistent/file.bin")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/file.bin"))
        let get = try await Courier.run("upload", "http://127.0.0.1:9/upload", "/dev/null", "-X", "GET")
        #expect(get.status == 2)
        #expect(get.stderr == "courier: --method 'GET' is not PUT or POST.\n")
    }

    @Test func getStreamsDataFiles() async throws {
        let json = Data(#"  {"a": [1, 2]}"#.utf8)
        let file = try Self.write(json)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer.withRunning { server in
            let echo = server.url("/echo").absoluteString
            let data = try await Courier.run("get", echo, "-d", "@\(file.path)", "--pick", "headers.content-type")
            #expect(data.stdout == "application/json\n")
            let binary = try await Courier.run(
                "get",
                server.url("/upload").absoluteString,
                "-X",
                "PUT",
                "--data-binary",
                "@\(file.path)"
            )
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: Data(binary.stdout.utf8))
            #expect(receipt.sha256 == UploadReceipt.sha256(of: json))
            #expect(receipt.contentLength == "\(json.count)")
            let both = try await Courier.run("get", echo, "-d", "a", "--data-binary", "b")
            #expect(both.status == 2)
        }
    }

    private static func write(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-cli-upload-\(UUID().uuidString)"
        )
        try data.write(to: url)
        return url
    }
}
