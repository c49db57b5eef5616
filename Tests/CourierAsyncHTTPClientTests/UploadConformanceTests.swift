import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierURLSession
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Streamed request bodies — files, sequences of chunks, multipart forms with files — on both
/// transports, checked by the SHA-256 the loopback server computes as it reads.
extension TransportConformanceTests {
    @Test(arguments: Transport.allCases)
    func uploadsAFileInPiecesWithItsLength(_ transport: Transport) async throws {
        let (file, bytes) = try Self.temporaryFile(size: 2 << 20 + 17)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withClient(transport, timeout: .seconds(60)) { client, _ in
            let reports = Reports()
            let body = RequestBody.file(file).reportingProgress { reports.add($0) }
            let receipt = try await client.send(Endpoint<UploadReceipt>(method: .put, path: "/upload", body: body))
            #expect(receipt.bytes == bytes.count)
            #expect(receipt.sha256 == UploadReceipt.sha256(of: bytes))
            #expect(receipt.contentLength == "\(bytes.count)")
            let sent = reports.all.map(\.bytesSent)
            #expect(sent.last == Int64(bytes.count))
            #expect(sent == sent.sorted())
            #expect(reports.all.allSatisfy { $0.expectedBytes == Int64(bytes.count) })
        }
    }

    @Test(arguments: Transport.allCases)
    func uploadsASequenceOfChunks(_ transport: Transport) async throws {
        try await withClient(transport, timeout: .seconds(60)) { client, _ in
            let pieces = (0..<64).map { Data(repeating: UInt8($0), count: 10_000 + $0) }
            let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                for piece in pieces { continuation.yield(piece) }
                continuation.finish()
            }
            let receipt = try await client.send(
                Endpoint<UploadReceipt>(method: .post, path: "/upload", body: .stream(chunks))
            )
            let whole = pieces.reduce(Data(), +)
            #expect(receipt.bytes == whole.count)
            #expect(receipt.sha256 == UploadReceipt.sha256(of: whole))
            // Expected to differ: URLSession uploads only from files, so the sequence is written
            // to a temporary file first and sent with its length.
            switch transport {
            case .asyncHTTPClient, .proxied: #expect(receipt.transferEncoding == "chunked")
            case .urlSession: #expect(receipt.contentLength == "\(whole.count)")
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func streamsMultipartFormsWithFileParts(_ transport: Transport) async throws {
        let (file, _) = try Self.temporaryFile(size: 1 << 20)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withClient(transport, timeout: .seconds(60)) { client, _ in
            var form = MultipartForm(boundary: "XyZ")
            form.append("caption", "At the library")
            form.append("scan", filename: "scan.bin", contentType: "application/octet-stream", file: file)
            let receipt = try await client.send(
                Endpoint<UploadReceipt>(method: .post, path: "/upload", body: .multipart(form))
            )
            // The same bytes as the form encoded in memory.
            let encoded = form.encoded()
            #expect(encoded.count > 1 << 20)
            #expect(receipt.bytes == encoded.count)
            #expect(receipt.sha256 == UploadReceipt.sha256(of: encoded))
            #expect(receipt.contentLength == "\(encoded.count)")
        }
    }

    @Test func aMissingFileIsAFileSystemError() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/courier-upload.bin")
        let client = HTTPClient(transport: URLSessionTransport())
        do throws(RequestError) {
            _ = try client.prepare(Endpoint<Data>(method: .put, host: "example.com", path: "/", body: .file(missing)))
            Issue.record("a missing file was accepted")
        } catch {
            guard case .fileSystem(let path, _) = error else {
                Issue.record("expected a file system error, got \(error)")
                return
            }
            #expect(path == missing.path)
        }
    }

    /// A new file of `size` seeded random bytes, and its bytes.
    static func temporaryFile(size: Int) throws -> (URL, Data) {
        var generator = SeededGenerator()
        var bytes = Data(count: size)
        bytes.withUnsafeMutableBytes { buffer in
            var index = 0
            while index < buffer.count {
                var word = generator.next()
                for _ in 0..<min(8, buffer.count - index) {
                    buffer[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-upload-test-\(UUID().uuidString)"
        )
        try bytes.write(to: url)
        return (url, bytes)
    }
}

/// The progress a callback saw, in order.
private final class Reports: Sendable {
    private let seen = Mutex<[UploadProgress]>([])
    func add(_ progress: UploadProgress) { seen.withLock { $0.append(progress) } }
    var all: [UploadProgress] { seen.withLock { $0 } }
}
