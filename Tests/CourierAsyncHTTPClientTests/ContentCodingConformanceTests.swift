import CompressNIO
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

/// Compressed bodies on both transports, through a real HTTP server on 127.0.0.1: what is asked
/// for, what is decoded, and how a bad or hostile body fails.
@Suite("Content coding conformance", .loadLimited)
struct ContentCodingConformanceTests {
    typealias Transport = TransportConformanceTests.Transport
    typealias Echo = TestServer.Echo

    static let text = Data(CodingRoutes.text(count: 20_000))

    func withClient(
        _ transport: Transport,
        maxResponseSize: Int = 1 << 20,
        acceptedEncodings: [ContentCoding]? = nil,
        _ body: @Sendable (HTTPClient, TestServer) async throws -> Void
    ) async throws {
        try await TransportConformanceTests().withClient(transport, maxResponseSize: maxResponseSize) {
            client,
            server in
            var configuration = client.configuration
            if let acceptedEncodings { configuration.acceptedEncodings = acceptedEncodings }
            try await body(HTTPClient(transport: client.transport, configuration: configuration), server)
        }
    }

    static func coded(_ coding: String, _ query: [URLQueryItem] = []) -> Endpoint<Data> {
        Endpoint<Data>(path: "/coded", query: [URLQueryItem(name: "coding", value: coding)] + query)
    }

    // MARK: - Asking

    @Test(arguments: Transport.allCases)
    func asksForGzipAndDeflateByDefault(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let echo = try await client.send(Endpoint<Echo>(path: "/echo"))
            #expect(echo.headers["accept-encoding"] == "gzip, deflate")
        }
    }

    @Test(arguments: Transport.allCases)
    func asksForIdentityWhenToldAndForRanges(_ transport: Transport) async throws {
        try await withClient(transport, acceptedEncodings: []) { client, _ in
            let echo = try await client.send(Endpoint<Echo>(path: "/echo"))
            #expect(echo.headers["accept-encoding"] == "identity")
        }
        try await withClient(transport) { client, _ in
            // An endpoint's own choice wins over the client's.
            let own = try await client.send(Endpoint<Echo>(path: "/echo").setting(.acceptEncoding, to: "gzip"))
            #expect(own.headers["accept-encoding"] == "gzip")
            // A range counts the bytes of the uncompressed representation.
            let ranged = try await client.send(Endpoint<Echo>(path: "/echo").setting(.range, to: "bytes=0-9"))
            #expect(ranged.headers["accept-encoding"] == "identity")
        }
    }

    // MARK: - Decoding

    @Test(arguments: Transport.allCases, ["gzip", "x-gzip", "deflate", "raw-deflate", "chain", "identity"])
    func decodesEachCoding(_ transport: Transport, coding: String) async throws {
        try await withClient(transport) { client, _ in
            let response = try await client.send(Self.coded(coding).request(with: client))
            #expect(response.body == Self.text)
            // The head describes the body handed over: no coding, no length of the coded bytes.
            #expect(response.head.headerFields[.contentEncoding] == nil)
            #expect(response.head.headerFields[.contentLength] == nil || coding == "identity")
            #expect(response.head.headerFields[.contentType] == "application/json")
        }
    }

    @Test(arguments: Transport.allCases, ["gzip", "deflate", "raw-deflate", "chain"])
    func decodesBodiesThatArriveInPieces(_ transport: Transport, coding: String) async throws {
        try await withClient(transport) { client, _ in
            for chunk in ["1", "7", "4096"] {
                let endpoint = Self.coded(coding, [URLQueryItem(name: "chunk", value: chunk)])
                let tellsRawDeflateLate = coding == "raw-deflate" && chunk == "1"
                try await Self.knownLinuxURLSessionIssue(
                    tellsRawDeflateLate ? transport : .asyncHTTPClient,
                    "libcurl tells raw deflate from zlib on the first piece only, and one byte does not tell"
                ) {
                    #expect(try await client.send(endpoint) == Self.text, "pieces of \(chunk)")
                    // Streamed too: each piece decoded as it comes.
                    let streamed = try await client.stream(endpoint)
                    #expect(streamed.head.headerFields[.contentEncoding] == nil)
                    var body = Data()
                    for try await piece in streamed.body { body.append(piece) }
                    #expect(body == Self.text, "streamed in pieces of \(chunk)")
                }
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func decodesAnEndpointsValue(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let movie = try await client.send(
                Endpoint<TransportConformanceTests.Movie>(path: "/coded/movie").convertingFromSnakeCase()
            )
            #expect(movie == TransportConformanceTests.movie)
        }
    }

    // MARK: - Limits and failures

    @Test(arguments: Transport.allCases)
    func theLimitCountsDecodedBytes(_ transport: Transport) async throws {
        // 20,000 bytes arrive as about 2,000: the limit is on what they decode to.
        try await withClient(transport, maxResponseSize: 19_999) { client, _ in
            let error = await #expect(throws: RequestError.self) { try await client.send(Self.coded("gzip")) }
            guard case .bodyTooLarge(_, let limit) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(limit == 19_999)
        }
        try await withClient(transport, maxResponseSize: 20_000) { client, _ in
            let body = try await client.send(Self.coded("gzip"))
            #expect(body == Self.text)
        }
    }

    @Test(arguments: Transport.allCases)
    func aDecompressionBombEndsAtTheLimit(_ transport: Transport) async throws {
        // 1 GiB of zeros in 1 MiB: only the first 16 MiB are ever decoded.
        try await withClient(transport, maxResponseSize: 16 << 20) { client, _ in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Data>(path: "/coded/bomb"))
            }
            guard case .bodyTooLarge(_, let limit) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(limit == 16 << 20)
        }
    }

    @Test(arguments: Transport.allCases, ["corrupt", "trailing"])
    func aSpoiledBodyIsItsOwnError(_ transport: Transport, shape: String) async throws {
        try await withClient(transport) { client, _ in
            for coding in ["gzip", "deflate"] {
                let error = await #expect(throws: RequestError.self) {
                    try await client.send(Self.coded(coding, [URLQueryItem(name: "shape", value: shape)]))
                }
                let failure = try #require(error?.transportFailure, "\(String(describing: error))")
                #expect(failure.kind == .undecodableBody, "\(coding) \(shape): \(failure.detail)")
                #expect(error?.category == .invalidResponse)
                #expect(error?.message.contains("could not be decompressed") == true)
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func aStreamCutShortIsAnError(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            try await Self.knownLinuxURLSessionIssue(
                transport,
                "libcurl takes a gzip stream that ends early inside a complete message for a shorter body"
            ) {
                let error = await #expect(throws: RequestError.self) {
                    try await client.send(Self.coded("gzip", [URLQueryItem(name: "shape", value: "truncated")]))
                }
                #expect(error?.transportFailure?.kind == .undecodableBody)
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func gzipMembersAreReadWhole(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            try await Self.knownLinuxURLSessionIssue(transport, "libcurl fails on a second gzip member") {
                let body = try await client.send(Self.coded("gzip", [URLQueryItem(name: "shape", value: "members")]))
                #expect(body == Self.text)
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func aDownloadAsksForTheFileAsItIs(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coded-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("body.gz")
            // The route answers in gzip whatever was asked, as a server that labels its .gz
            // files so does.
            _ = try await client.download(Endpoint(url: server.url("/coded?coding=gzip&bytes=5000")), to: file)
            let saved = try Data(contentsOf: file)
            switch transport {
            case .asyncHTTPClient, .proxied:
                // Asked for identity, it keeps what came: the file as the server has it.
                #expect(saved == Data(CodingRoutes.compress(CodingRoutes.text(count: 5000), .gzip)))
            case .urlSession:
                // Foundation decodes whatever was asked for.
                #expect(saved == Data(CodingRoutes.text(count: 5000)))
            }
        }
    }

    @Test
    func aCodingTheTransportCannotUndoIsHandedOverAsItCame() async throws {
        // AsyncHTTPClientTransport undoes gzip and deflate only (libcurl, under URLSession on
        // Linux, undoes br itself, so this text labelled br fails there).
        try await withClient(.asyncHTTPClient) { client, _ in
            let response = try await client.send(Self.coded("br").request(with: client))
            #expect(response.body == Self.text)
            #expect(response.head.headerFields[.contentEncoding] == "br")
        }
    }

    /// Runs `body`, whose expectations fail on FoundationNetworking (Linux) for `reason`.
    static func knownLinuxURLSessionIssue(
        _ transport: Transport,
        _ reason: Comment,
        _ body: () async throws -> Void
    ) async throws {
        #if canImport(FoundationNetworking)
        if transport == .urlSession {
            await withKnownIssue(reason, isIntermittent: false) { try await body() }
            return
        }
        #endif
        try await body()
    }
}

extension Endpoint {
    /// This endpoint as the prepared request `client` sends, to read the raw response with.
    fileprivate func request(with client: HTTPClient) throws -> PreparedRequest {
        try client.prepare(self)
    }
}
