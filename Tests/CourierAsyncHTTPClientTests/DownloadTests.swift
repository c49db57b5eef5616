import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Downloads to files through the AsyncHTTPClient transport, against the loopback server's
/// `/file/{name}` route (ranges, If-Range, dropped connections).
@Suite(.loadLimited)
struct DownloadTests {
    /// The bytes `/file/{name}?bytes=count` serves.
    static func expected(_ count: Int, from start: Int = 0) -> Data {
        Data((start..<count).map { UInt8($0 % 251) })
    }

    static func withClient(_ body: @Sendable (TestServer, HTTPClient, URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                try await body(server, HTTPClient(transport: transport), directory)
            }
        }
    }

    @Test func streamsTheBodyToTheFileAndReportsProgress() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("a.bin")
            let reports = Mutex<[DownloadProgress]>([])
            let result = try await client.download(Endpoint(url: server.url("/file/a?bytes=1000000")), to: destination)
            {
                progress in reports.withLock { $0.append(progress) }
            }
            #expect(result.bytes == 1_000_000)
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: destination) == Self.expected(1_000_000))
            let progress = reports.withLock { $0 }
            #expect(progress.count > 1)
            #expect(progress.last == DownloadProgress(bytesReceived: 1_000_000, expectedBytes: 1_000_000))
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.bytesReceived < $1.bytesReceived })
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.bin"])
        }
    }

    @Test func anInterruptedDownloadResumesWhereItStopped() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("b.bin")
            let endpoint = Endpoint<Data>(url: server.url("/file/b?bytes=3000000&drop_once=1000000"))
            let error = await #expect(throws: RequestError.self) {
                try await client.download(endpoint, to: destination)
            }
            #expect(error?.transportFailure?.kind == .connectionLost)
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            let partial = try Data(contentsOf: destination.appendingPathExtension("download"))
            #expect(partial == Self.expected(partial.count))
            let metadata = destination.appendingPathExtension("download.json").path
            let mode = (try FileManager.default.attributesOfItem(atPath: metadata)[.posixPermissions] as? NSNumber)?
                .intValue
            #expect(mode.map { $0 & 0o777 } == 0o600, "the metadata holds the URL: the owner's only")
            #expect(partial.count > 0 && partial.count <= 1_000_000)

            let result = try await client.download(endpoint, to: destination)
            #expect(result.resumedFrom == Int64(partial.count))
            #expect(result.bytes == 3_000_000)
            #expect(result.head.status == .partialContent)
            #expect(try Data(contentsOf: destination) == Self.expected(3_000_000))
            #expect(await server.events.hitCount("b:range") == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["b.bin"])
        }
    }

    /// `Retry` resends the same ranged request after the 206 breaks off: the second attempt
    /// overwrites what the first added, so the file ends byte-identical, and no descriptor of the
    /// failed attempt stays open.
    @Test func aRetriedResumptionEndsIdenticalToTheSource() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("retried.bin")
            // Hits 1 and 2 break off after 200,000 bytes each: the first run keeps 200,000 bytes,
            // the resumption's first attempt adds 200,000 more before it breaks, the retry
            // sends the rest again from 200,000.
            let endpoint = Endpoint<Data>(url: server.url("/file/retried?bytes=500000&drop_once=200000&drop_until=2"))
            await #expect(throws: RequestError.self) { try await client.download(endpoint, to: destination) }
            let retrying = HTTPClient(
                transport: client.transport,
                configuration: .init(middleware: [Retry(maxAttempts: 3, baseDelay: .milliseconds(1))])
            )
            let result = try await retrying.download(endpoint, to: destination)
            #expect(await server.events.hitCount("retried:range") == 2)
            #expect(result.resumedFrom > 0)
            #expect(try Data(contentsOf: destination) == Self.expected(500_000))
            #expect(Self.openDescriptors(of: destination) == 0)  // the partial file, or the file it became
        }
    }

    /// A part that does not continue the bytes on disk exactly to the end is an error, and
    /// nothing is moved into place.
    @Test(arguments: [
        "range_shift=10", "short_part=100", "short_body=100", "short_body=299000",
        "content_range=bytes%201000-299999/-9223372036854775808", "content_range=bytes%201000-9223372036854775807/*",
        "content_range=bytes%201000-299999/500000", "content_range=bytes%20+1000-299999/300000",
    ])
    func partsThatDoNotFitAreRefused(_ hostility: String) async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("part.bin")
            let url = server.url("/file/part?bytes=300000&\(hostility)")
            try Self.expected(1000).write(to: destination.appendingPathExtension("download"))
            let metadata = #"{"url":"\#(url.absoluteString)","validator":"\"v1\"","expectedBytes":300000}"#
            try Data(metadata.utf8).write(to: destination.appendingPathExtension("download.json"))
            let error = await #expect(throws: RequestError.self) {
                try await client.download(Endpoint(url: url), to: destination)
            }
            #expect(error?.transportFailure != nil, "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            #expect(await server.events.hitCount("part:range") == 1)
        }
    }

    @Test func aPartNobodyAskedForIsRefused() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("unasked.bin")
            let error = await #expect(throws: RequestError.self) {
                try await client.download(
                    Endpoint(url: server.url("/file/unasked?bytes=1000&unsolicited_206=1")),
                    to: destination
                )
            }
            #expect(error?.message.contains("206") == true, "\(String(describing: error?.message))")
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }

    /// A symbolic link in the partial file's place is removed, never written through.
    @Test func aSymbolicLinkInThePartialFilesPlaceIsNotFollowed() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("link.bin")
            let victim = directory.appendingPathComponent("victim.txt")
            try Data("precious".utf8).write(to: victim)
            try FileManager.default.createSymbolicLink(
                at: destination.appendingPathExtension("download"),
                withDestinationURL: victim
            )
            let url = server.url("/file/link?bytes=5000")
            let metadata = #"{"url":"\#(url.absoluteString)","validator":"\"v1\"","expectedBytes":5000}"#
            try Data(metadata.utf8).write(to: destination.appendingPathExtension("download.json"))
            let result = try await client.download(Endpoint(url: url), to: destination)
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: destination) == Self.expected(5000))
            #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        }
    }

    /// How many of this process's file descriptors are open on `file`.
    static func openDescriptors(of file: URL) -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))
                .map { $0.hasPrefix(file.path) } ?? false
        }.count
    }

    @Test func aStalledTransferTimesOutAndResumesLater() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.withRunning { server in
            let destination = directory.appendingPathComponent("stall.bin")
            let endpoint = Endpoint<Data>(url: server.url("/file/stall?bytes=400000&stall_once=100000"))
            // The server stays silent after 100,000 bytes; the read timeout leaves room for a
            // loaded machine to deliver those first (5 s was not always enough: the first bytes
            // had not arrived, and there was nothing to resume). The resumed download gets the
            // default one.
            let impatient = AsyncHTTPClientTransport.Configuration(readTimeout: .seconds(20))
            try await AsyncHTTPClientTransport.withTransport(configuration: impatient) { transport in
                let error = await #expect(throws: RequestError.self) {
                    try await HTTPClient(transport: transport).download(endpoint, to: destination)
                }
                #expect(error?.transportFailure?.kind == .timedOut)
            }
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let result = try await HTTPClient(transport: transport).download(endpoint, to: destination)
                #expect(result.resumedFrom > 0)
                #expect(try Data(contentsOf: destination) == Self.expected(400_000))
            }
        }
    }

    @Test func aChangedFileIsDownloadedAgainFromTheStart() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("c.bin")
            let endpoint = Endpoint<Data>(url: server.url("/file/c?bytes=500000&drop_once=200000"))
            _ = try? await client.download(endpoint, to: destination)
            // The server's file is now another version: its tag no longer matches the one saved.
            let metadata = destination.appendingPathExtension("download.json")
            let saved = String(decoding: try Data(contentsOf: metadata), as: UTF8.self)
            try Data(saved.replacingOccurrences(of: "v1", with: "v0").utf8).write(to: metadata)

            let result = try await client.download(endpoint, to: destination)
            #expect(result.resumedFrom == 0)
            #expect(result.head.status == .ok)
            #expect(try Data(contentsOf: destination) == Self.expected(500_000))
        }
    }

    @Test func aPartBeyondTheFileStartsOver() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("d.bin")
            let url = server.url("/file/d?bytes=1000").absoluteString
            try Data(repeating: 7, count: 5000).write(to: destination.appendingPathExtension("download"))
            try Data(#"{"url":"\#(url)","validator":"\"v1\""}"#.utf8)
                .write(to: destination.appendingPathExtension("download.json"))
            let result = try await client.download(Endpoint(url: URL(string: url)!), to: destination)
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: destination) == Self.expected(1000))
        }
    }

    @Test func cancellingRemovesThePartialFile() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("e.bin")
            let started = AsyncStream.makeStream(of: Void.self)
            let task = Task {
                try await client.download(Endpoint(url: server.url("/file/e?bytes=200000000")), to: destination) { _ in
                    started.continuation.yield()
                }
            }
            var iterator = started.stream.makeAsyncIterator()
            _ = await iterator.next()
            task.cancel()
            let outcome = await task.result
            #expect(throws: RequestError.self) { try outcome.get() }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test func statusErrorsAreTheEnginesAndLeaveNoFile() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("missing.bin")
            let error = await #expect(throws: RequestError.self) {
                try await client.download(Endpoint(url: server.url("/missing")), to: destination)
            }
            #expect(error?.httpFailure?.status == 404)
            #expect(
                error?.message.hasSuffix("The server said: 404 Not Found Not Found The page you asked for is not here.")
                    == true
            )
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test func redirectsAreFollowed() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("f.bin")
            let target = "/file/f?bytes=70000".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let result = try await client.download(
                Endpoint(url: server.url("/redirect-to?url=\(target)")),
                to: destination
            )
            #expect(result.bytes == 70_000)
            #expect(try Data(contentsOf: destination) == Self.expected(70_000))
        }
    }

    @Test func anUnwritableDestinationIsAFileSystemError() async throws {
        try await Self.withClient { server, client, directory async throws in
            let destination = directory.appendingPathComponent("no/such/dir/g.bin")
            let error = await #expect(throws: RequestError.self) {
                try await client.download(Endpoint(url: server.url("/file/g?bytes=10")), to: destination)
            }
            #expect(
                error?.message
                    == "Could not use \(destination.path).download: No such file or directory. Check that it exists, that you may use it, and that its disk has free space."
            )
        }
    }

    /// Without `replacingExisting`, anything at the destination (a file, a dangling link) stops
    /// the download before it is sent, and the file is left as it was.
    @Test func anExistingFileIsNotReplacedUnlessAsked() async throws {
        try await Self.withClient { server, client, directory async throws in
            let file = directory.appendingPathComponent("h.bin")
            try Data("mine".utf8).write(to: file)
            let link = directory.appendingPathComponent("i.bin")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent/target")
            for destination in [file, link] {
                let error = await #expect(throws: RequestError.self) {
                    try await client.download(
                        Endpoint(url: server.url("/file/h?bytes=10")),
                        to: destination,
                        replacingExisting: false
                    )
                }
                #expect(error?.message.contains("it exists already, and replacing it was not asked for") == true)
            }
            #expect(await server.events.hitCount("h") == 0)
            #expect(try Data(contentsOf: file) == Data("mine".utf8))
            let replaced = try await client.download(Endpoint(url: server.url("/file/h?bytes=10")), to: file)
            #expect(replaced.bytes == 10)
            #expect(try Data(contentsOf: file) == Self.expected(10))
        }
    }
}
