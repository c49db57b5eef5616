import CompressNIO
import CourierTestTraits
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CourierServerKit

/// Answers as they leave the router, tested in process: gzip only for a client that asked,
/// with `Vary` and entity tags that keep caches and 304s right.
@Suite(.loadLimited)
struct ResponseCompressionTests {
    /// A JSON document of 100 records, a small one, and a page, behind the middleware.
    static let application: Application<RouterResponder<BasicRequestContext>> = {
        let records = (0..<100).map { #"{"title":"Book number \#($0)","author":"Someone"}"# }
        let large = StaticFile(
            bytes: Array(("[" + records.joined(separator: ",") + "]").utf8),
            contentType: "application/json"
        )
        let small = StaticFile(bytes: Array(#"[{"title":"Emma"}]"#.utf8), contentType: "application/json")
        let page = StaticFile(
            bytes: Array("<!doctype html><html><title>Books</title>\(records.joined())</html>".utf8),
            contentType: "text/html; charset=utf-8"
        )
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.middlewares.add(ResponseCompression())
        router.get("/large") { request, _ in large.response(to: request) }
        router.get("/small") { request, _ in small.response(to: request) }
        router.get("/") { request, _ in page.response(to: request) }
        return Application(router: router)
    }()

    /// The answer to `method path` with `fields`, as a client that decodes nothing reads it.
    static func get(
        _ path: String,
        method: HTTPRequest.Method = .get,
        _ fields: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await application.test(.router) { client in
            try await client.execute(uri: path, method: method, headers: fields)
        }
    }

    /// The body as it would be decoded: gunzipped when it came in gzip.
    static func decoded(_ response: TestResponse) throws -> ByteBuffer {
        guard response.headers[.contentEncoding] == "gzip" else { return response.body }
        var body = response.body
        return try body.decompress(with: .gzip())
    }

    @Test func gzipOnlyForAClientThatAsks() async throws {
        let plain = try await Self.get("/large")
        #expect(plain.status == .ok)
        #expect(plain.headers[.contentEncoding] == nil)
        #expect(plain.headers[.vary] == "Accept-Encoding")
        let tag = try #require(plain.headers[.eTag])
        #expect(!tag.hasPrefix("W/"))
        #expect(plain.body.readableBytes > 1024)

        for accept in ["gzip", "gzip, deflate", "deflate, gzip;q=0.5", "*", "br, x-gzip"] {
            let coded = try await Self.get("/large", [.acceptEncoding: accept])
            #expect(coded.headers[.contentEncoding] == "gzip", "\(accept)")
            #expect(coded.headers[.vary] == "Accept-Encoding")
            #expect(coded.headers[.eTag] == "W/" + tag, "the same content, not the same bytes")
            #expect(coded.body.readableBytes < plain.body.readableBytes / 3)
            #expect(try Self.decoded(coded) == plain.body)
        }
        for accept in ["identity", "gzip;q=0", "*;q=0", "br", "deflate", "gzip;q=0, *"] {
            let refused = try await Self.get("/large", [.acceptEncoding: accept])
            #expect(refused.headers[.contentEncoding] == nil, "\(accept)")
            #expect(refused.body == plain.body)
        }
        // A range is never compressed: its offsets count the plain bytes.
        let ranged = try await Self.get("/large", [.acceptEncoding: "gzip", .range: "bytes=0-9"])
        #expect(ranged.headers[.contentEncoding] == nil)
    }

    @Test func revalidationWorksForBothForms() async throws {
        let coded = try await Self.get("/large", [.acceptEncoding: "gzip"])
        let weakTag = try #require(coded.headers[.eTag])
        #expect(weakTag.hasPrefix("W/"))
        // The client holding the compressed form gets a 304 naming its tag as it holds it.
        let notModified = try await Self.get("/large", [.acceptEncoding: "gzip", .ifNoneMatch: weakTag])
        #expect(notModified.status == .notModified)
        #expect(notModified.headers[.eTag] == weakTag)
        #expect(notModified.headers[.vary] == "Accept-Encoding")
        // The client holding the plain form, by its strong tag.
        let strongTag = String(weakTag.dropFirst(2))
        let plain = try await Self.get("/large", [.ifNoneMatch: strongTag])
        #expect(plain.status == .notModified)
        #expect(plain.headers[.eTag] == strongTag)
    }

    @Test func aHeadGetsTheHeadOfItsGet() async throws {
        for accept in ["gzip", "identity"] {
            let get = try await Self.get("/large", [.acceptEncoding: accept])
            let head = try await Self.get("/large", method: .head, [.acceptEncoding: accept])
            #expect(head.body.readableBytes == 0)
            for name: HTTPField.Name in [.contentEncoding, .eTag, .vary] {
                #expect(head.headers[name] == get.headers[name], "\(accept): \(name)")
            }
        }
    }

    @Test func smallAnswersAreSentAsTheyAreAndPagesCompressed() async throws {
        let small = try await Self.get("/small", [.acceptEncoding: "gzip"])
        #expect(small.body.readableBytes < 1024)
        #expect(small.headers[.contentEncoding] == nil)
        #expect(small.headers[.vary] == "Accept-Encoding")
        let page = try await Self.get("/", [.acceptEncoding: "gzip"])
        #expect(page.headers[.contentEncoding] == "gzip")
        #expect(String(buffer: try Self.decoded(page)).contains("<html"))
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
