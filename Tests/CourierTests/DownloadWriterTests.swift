import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// The rules a resumed download's writer keeps, in process.
@Suite(.loadLimited)
struct DownloadWriterTests {
    static func withPartialFile(_ body: (PartialDownload) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let partial = PartialDownload(destination: directory.appendingPathComponent("file.bin"))
        try Data(repeating: 7, count: 10).write(to: partial.data)
        try body(partial)
    }

    static func part(_ coding: String?) -> HTTPResponse {
        var head = HTTPResponse(status: .partialContent, headerFields: [.contentRange: "bytes 10-19/20"])
        if let coding { head.headerFields[.contentEncoding] = coding }
        return head
    }

    /// A start the transport decoded cannot go on with a rest that came compressed: the partial
    /// file is dropped, so that the next attempt fetches the file whole.
    @Test func aRestInAnotherCodingIsRefusedAndThePartialFileDropped() throws {
        try Self.withPartialFile { partial in
            let writer = DownloadWriter(
                partial: partial,
                url: "https://files.test/a",
                resumeOffset: 10,
                resumedEncoding: nil,
                progress: { _ in }
            )
            #expect(throws: RequestError.self) { try writer.receive(Self.part("gzip"), Data(count: 10)) }
            #expect(!FileManager.default.fileExists(atPath: partial.data.path))
        }
        try Self.withPartialFile { partial in
            // The same coding as the start on disk: the rest continues it.
            let writer = DownloadWriter(
                partial: partial,
                url: "https://files.test/a",
                resumeOffset: 10,
                resumedEncoding: "gzip",
                progress: { _ in }
            )
            try writer.receive(Self.part("gzip"), Data(count: 10))
            try writer.finish()
            #expect(writer.totals.written == 20)
        }
    }
}
