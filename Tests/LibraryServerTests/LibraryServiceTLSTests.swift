import AsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import LibraryServer
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Testing

/// The service over HTTPS: HTTP/2 offered by ALPN, HTTP/1.1 still served, and the certificate
/// checked at start.
@Suite(.loadLimited)
struct LibraryServiceTLSTests {
    @Test(arguments: [true, false])
    func servesHTTP2AndHTTP1OverTLS(_ offersHTTP2: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TestCertificates.make(in: directory)
        let certificate = try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: files.keyFile)
        #expect(certificate.names == ["localhost", "127.0.0.1"])
        #expect(!certificate.isSelfSigned)

        let server = try LibraryServer(
            library: Library(LibraryServiceFixture.data),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }  // a server that cannot start must not leave the test waiting
                try await server.run(host: "127.0.0.1", port: 0, certificate: certificate, handlingSignals: false) {
                    continuation.yield($0)
                    continuation.finish()
                }
            }
            defer { group.cancelAll() }
            var iterator = urls.makeAsyncIterator()
            let url = try #require(await iterator.next())
            #expect(url.scheme == "https")

            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(files.authorityFile)
            var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
            configuration.httpVersion = offersHTTP2 ? .automatic : .http1Only
            let client = HTTPClient(
                eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
                configuration: configuration
            )
            do {
                let response = try await client.execute(
                    HTTPClientRequest(url: url.absoluteString + "/locations?country=fr"),
                    timeout: .seconds(60)
                )
                #expect(response.status == .ok)
                #expect(response.version == (offersHTTP2 ? .http2 : .http1_1))
                let body = try await response.body.collect(upTo: 1 << 20)
                #expect(String(buffer: body).contains("Rue Cler"))
                try await client.shutdown()
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    @Test func aCertificateOfTheWrongKindOrForTheFutureIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TestCertificates.make(in: directory, selfSigned: true)
        let certificate = try ServerCertificate(certificateFile: files.certificateFile, privateKeyFile: files.keyFile)
        #expect(certificate.isSelfSigned)
        #expect(throws: ServerCertificateError.self) {
            try ServerCertificate(
                certificateFile: files.certificateFile,
                privateKeyFile: files.keyFile,
                now: Date().addingTimeInterval(-86_400)
            )
        }
    }
}
