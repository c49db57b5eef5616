import AsyncHTTPClient
import CompressNIO
import CourierTestTraits
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import LibraryServer

/// The service's answers on the wire, read by a client that decodes nothing: gzip only for a
/// client that asked, with `Vary` and entity tags that keep caches and 304s right.
@Suite(.loadLimited)
struct ResponseCompressionTests {
    struct WireResponse {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer

        /// The body as it would be decoded: gunzipped when it came in gzip.
        func decoded() throws -> ByteBuffer {
            guard headers.first(name: "content-encoding") == "gzip" else { return body }
            var body = body
            return try body.decompress(with: .gzip())
        }
    }

    static func get(
        _ url: URL,
        _ path: String,
        method: HTTPMethod = .GET,
        headers: [(String, String)] = []
    ) async throws -> WireResponse {
        var request = HTTPClientRequest(url: url.absoluteString + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        // Not `HTTPClient.shared`, which asks for compressed bodies and decodes them.
        let client = AsyncHTTPClient.HTTPClient(eventLoopGroup: .singletonMultiThreadedEventLoopGroup)
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 16 << 20)
            try await client.shutdown()
            return WireResponse(status: Int(response.status.code), headers: response.headers, body: body)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test func gzipOnlyForAClientThatAsks() async throws {
        try await LibraryServiceFixture.withService { _, url in
            let path = "/catalog?limit=100"
            let plain = try await Self.get(url, path)
            #expect(plain.status == 200)
            #expect(plain.headers.first(name: "content-encoding") == nil)
            #expect(plain.headers.first(name: "vary") == "Accept-Encoding")
            let tag = try #require(plain.headers.first(name: "etag"))
            #expect(!tag.hasPrefix("W/"))
            #expect(plain.body.readableBytes > 1024)

            for accept in ["gzip", "gzip, deflate", "deflate, gzip;q=0.5", "*", "br, x-gzip"] {
                let coded = try await Self.get(url, path, headers: [("Accept-Encoding", accept)])
                #expect(coded.headers.first(name: "content-encoding") == "gzip", "\(accept)")
                #expect(coded.headers.first(name: "vary") == "Accept-Encoding")
                #expect(coded.headers.first(name: "etag") == "W/" + tag, "the same content, not the same bytes")
                #expect(coded.headers.first(name: "content-length") == String(coded.body.readableBytes))
                #expect(coded.body.readableBytes < plain.body.readableBytes / 3)
                #expect(try coded.decoded() == plain.body)
            }
            for accept in ["identity", "gzip;q=0", "*;q=0", "br", "deflate", "gzip;q=0, *"] {
                let refused = try await Self.get(url, path, headers: [("Accept-Encoding", accept)])
                #expect(refused.headers.first(name: "content-encoding") == nil, "\(accept)")
                #expect(refused.body == plain.body)
            }
            // A range is never compressed: its offsets count the plain bytes.
            let ranged = try await Self.get(url, path, headers: [("Accept-Encoding", "gzip"), ("Range", "bytes=0-9")])
            #expect(ranged.headers.first(name: "content-encoding") == nil)
        }
    }

    @Test func revalidationWorksForBothForms() async throws {
        try await LibraryServiceFixture.withService { _, url in
            let path = "/catalog?limit=100"
            let coded = try await Self.get(url, path, headers: [("Accept-Encoding", "gzip")])
            let weakTag = try #require(coded.headers.first(name: "etag"))
            #expect(weakTag.hasPrefix("W/"))
            // The client holding the compressed form gets a 304 naming its tag as it holds it.
            let notModified = try await Self.get(
                url,
                path,
                headers: [("Accept-Encoding", "gzip"), ("If-None-Match", weakTag)]
            )
            #expect(notModified.status == 304)
            #expect(notModified.headers.first(name: "etag") == weakTag)
            #expect(notModified.headers.first(name: "vary") == "Accept-Encoding")
            // The client holding the plain form, by its strong tag.
            let strongTag = String(weakTag.dropFirst(2))
            let plain = try await Self.get(url, path, headers: [("If-None-Match", strongTag)])
            #expect(plain.status == 304)
            #expect(plain.headers.first(name: "etag") == strongTag)
        }
    }

    @Test func aHeadGetsTheHeadOfItsGet() async throws {
        try await LibraryServiceFixture.withService { _, url in
            for accept in ["gzip", "identity"] {
                let get = try await Self.get(url, "/catalog?limit=100", headers: [("Accept-Encoding", accept)])
                let head = try await Self.get(
                    url,
                    "/catalog?limit=100",
                    method: .HEAD,
                    headers: [("Accept-Encoding", accept)]
                )
                #expect(head.body.readableBytes == 0)
                for name in ["content-encoding", "etag", "vary", "content-length"] {
                    #expect(head.headers.first(name: name) == get.headers.first(name: name), "\(accept): \(name)")
                }
            }
        }
    }

    @Test func smallAnswersAndOtherTypesAreSentAsTheyAre() async throws {
        try await LibraryServiceFixture.withService { _, url in
            let small = try await Self.get(url, "/catalog?limit=1", headers: [("Accept-Encoding", "gzip")])
            #expect(small.body.readableBytes < 1024)
            #expect(small.headers.first(name: "content-encoding") == nil)
            #expect(small.headers.first(name: "vary") == "Accept-Encoding")
            // The page is HTML: compressed.
            let page = try await Self.get(url, "/", headers: [("Accept-Encoding", "gzip")])
            #expect(page.headers.first(name: "content-encoding") == "gzip")
            #expect(String(buffer: try page.decoded()).contains("<html"))
        }
    }

    @Test func theRulesOfAcceptEncodingAndTypes() {
        typealias Compression = ResponseCompression<BasicRequestContext>
        #expect(Compression.acceptsGzip(["gzip"]))
        #expect(Compression.acceptsGzip(["br", "GZIP;Q=0.1"]))
        #expect(Compression.acceptsGzip(["*"]))
        #expect(!Compression.acceptsGzip([]))
        #expect(!Compression.acceptsGzip(["gzip;q=0", "*"]))
        #expect(!Compression.acceptsGzip(["gzip;q=0.000"]))
        #expect(Compression.acceptsGzip(["gzip;q=nonsense"]), "an unreadable weight is left out")
        func response(_ type: String?, _ extra: HTTPFields = [:]) -> Response {
            var headers = extra
            if let type { headers[.contentType] = type }
            return Response(status: .ok, headers: headers)
        }
        for type in [
            "application/json", "application/problem+json", "text/html; charset=utf-8", "text/css",
            "application/javascript", "image/svg+xml", "application/atom+xml",
        ] {
            #expect(Compression.isCompressible(response(type)), "\(type)")
        }
        for type in ["image/png", "text/event-stream", "application/octet-stream", "application/zip", nil] {
            #expect(!Compression.isCompressible(response(type)), "\(type ?? "none")")
        }
        #expect(!Compression.isCompressible(response("application/json", [.contentEncoding: "br"])))
        #expect(!Compression.isCompressible(response("application/json", [.cacheControl: "no-transform"])))
        #expect(!Compression.isCompressible(response("application/json", [.cacheControl: "max-age=60, No-Transform"])))
        #expect(Compression.isCompressible(response("application/json", [.cacheControl: "x=\"no-transform\""])))
    }
}
