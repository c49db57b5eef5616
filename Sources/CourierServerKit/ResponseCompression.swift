import CompressNIO
import Courier
import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore

/// Compresses text answers (JSON, HTML, JavaScript, CSS, XML, SVG, plain text) with gzip for a
/// client whose `Accept-Encoding` accepts it, as nginx's `gzip on` does.
///
/// ```swift
/// let router = Router()
/// router.middlewares.add(ResponseCompression())
/// ```
///
/// - A client that did not ask for gzip (no `Accept-Encoding`, `identity`, `gzip;q=0`) gets the
///   body as it is, and so does a request for a range, a body below ``minimumSize``, a
///   `206`, `204` or `304`, an event stream, an answer already coded, and one marked
///   `Cache-Control: no-transform`.
/// - Every answer of a compressible type says `Vary: Accept-Encoding`, so that caches keep the
///   two forms apart.
/// - A compressed answer's entity tag is made weak (`W/"…"`), as nginx does: it names the
///   same content, not the same bytes. `If-None-Match` compares weakly, so a client holding
///   the compressed form still gets its `304`, and the `304` names the tag in the form the
///   client holds.
/// - A `HEAD` gets the head its `GET` would get.
/// - A body of known length (up to 16 MiB) is compressed whole, with its `Content-Length`;
///   a streamed one is compressed as it is written, each write flushed, so that it arrives
///   when it was written.
public struct ResponseCompression<Context: RequestContext>: RouterMiddleware {
    /// The smallest body compressed, in bytes: below it the gzip framing costs more than it saves.
    public var minimumSize: Int
    /// zlib's compression level, 1 (fastest) to 9 (smallest).
    public var level: Int32

    /// Creates the middleware.
    public init(minimumSize: Int = 1024, level: Int32 = 5) {
        self.minimumSize = minimumSize
        self.level = min(9, max(1, level))
    }

    /// Compresses the answer to `request` when the client accepts gzip; see the type.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // A HEAD is answered as its GET would be, less the body: the router's own HEAD answers
        // have lost the body whose size decides, and the two must agree.
        let isHead = request.method == .head
        var request = request
        if isHead {
            var head = request.head
            head.method = .get
            request = Request(head: head, body: request.body)
        }
        let response = try await compressing(try await next(request, context), for: request)
        return isHead ? response.createHeadResponse() : response
    }

    private func compressing(_ response: Response, for request: Request) async throws -> Response {
        var response = response
        let accepted = Self.acceptsGzip(request.headers[values: .acceptEncoding])
        if response.status == .notModified {
            if accepted { Self.matchTheHeldForm(of: &response, request: request) }
            return response
        }
        guard Self.isCompressible(response) else { return response }
        Self.addVary(to: &response)
        guard accepted, request.headers[.range] == nil, response.status != .partialContent,
            response.body.contentLength.map({ $0 >= minimumSize }) ?? true
        else { return response }

        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        if let tag = response.headers[.eTag], !tag.hasPrefix("W/") { response.headers[.eTag] = "W/" + tag }
        let body = response.body
        let level = self.level
        if let length = body.contentLength, length <= Self.wholeBodyLimit {
            // Compressed here, whole: its length is known before the head is sent.
            let sink = GzipWriter.Sink()
            try await body.write(GzipWriter(level: level, sink: sink))
            let compressed = sink.buffer
            response.headers[.contentLength] = String(compressed.readableBytes)
            response.body = ResponseBody(byteBuffer: compressed)
        } else {
            response.body = ResponseBody { writer in
                try await body.write(GzipWriter(level: level, base: writer))
            }
        }
        return response
    }

    /// The largest body of known length compressed before it is sent.
    static var wholeBodyLimit: Int { 16 << 20 }

    // MARK: - Deciding

    /// Whether `Accept-Encoding` (all its fields) accepts gzip: named (or `x-gzip`, or `*`)
    /// with a weight above zero (`ContentCoding.accepts(_:acceptEncoding:)`, the client's rule).
    static func acceptsGzip(_ fields: [String]) -> Bool {
        ContentCoding.accepts(.gzip, acceptEncoding: fields)
    }

    /// Whether the answer's type is text worth compressing and nothing forbids it.
    static func isCompressible(_ response: Response) -> Bool {
        guard response.headers[.contentEncoding] == nil,
            response.status != .noContent, response.status.code >= 200,
            let type = response.headers[.contentType],
            !MediaType.matches(type, anyOf: ["text/event-stream"]),
            MediaType.matches(type, anyOf: compressibleTypes)
        else { return false }
        return !response.headers[values: .cacheControl].contains { value in
            CacheControl.directives(in: value).contains { $0.0 == "no-transform" }
        }
    }

    /// The text types compressed, as `MediaType` patterns (SVG is `*/*+xml`).
    static var compressibleTypes: [String] {
        [
            "text/*", "*/*+json", "*/*+xml", "application/json", "application/javascript", "application/xml",
            "application/x-ndjson", "application/jsonl",
        ]
    }

    private static func addVary(to response: inout Response) {
        let present = response.headers[values: .vary].contains { value in
            value.split(separator: ",").contains {
                let name = $0.trimmingCharacters(in: .whitespaces).lowercased()
                return name == "accept-encoding" || name == "*"
            }
        }
        if !present { response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding")) }
    }

    /// A `304` for a client holding the compressed form (its `If-None-Match` names the tag
    /// weakly) names the tag weakly too, with the `Vary` of the answer it stands for.
    private static func matchTheHeldForm(of response: inout Response, request: Request) {
        guard let tag = response.headers[.eTag], !tag.hasPrefix("W/") else { return }
        let weak = "W/" + tag
        guard request.headers[values: .ifNoneMatch].contains(where: { $0.contains(weak) }) else { return }
        response.headers[.eTag] = weak
        addVary(to: &response)
    }
}

/// A body writer that gzips what is written: into `base` as it goes, or, without one, into
/// `sink`, whose buffer the caller takes at the end.
private struct GzipWriter: ResponseBodyWriter {
    /// Where a body compressed whole goes.
    final class Sink {
        var buffer = ByteBuffer()
    }

    private let compressor: ZlibCompressor?
    private var base: (any ResponseBodyWriter)?
    private let sink: Sink?

    init(level: Int32, base: any ResponseBodyWriter) {
        self.init(level: level, base: base, sink: nil)
    }

    init(level: Int32, sink: Sink) {
        self.init(level: level, base: nil, sink: sink)
    }

    private init(level: Int32, base: (any ResponseBodyWriter)?, sink: Sink?) {
        self.compressor = try? ZlibCompressor(
            algorithm: .gzip,
            configuration: ZlibConfiguration(windowSize: 15, compressionLevel: level, memoryLevel: 8)
        )
        self.base = base
        self.sink = sink
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        var input = buffer
        // A streamed body is flushed with each write, so that what the handler wrote when it
        // wrote it (an entry, an event) reaches the client then, not when zlib's buffer fills.
        let output = try deflate(&input, flush: base == nil ? .no : .sync)
        if output.readableBytes > 0 { try await deliver(output) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        var empty = ByteBuffer()
        let output = try deflate(&empty, flush: .finish)
        try await deliver(output)
        if let base { try await base.finish(trailingHeaders) }
    }

    private mutating func deliver(_ output: ByteBuffer) async throws {
        if var writer = base {
            try await writer.write(output)
            base = writer
        } else if let sink {
            var output = output
            sink.buffer.writeBuffer(&output)
        }
    }

    /// Runs zlib over `input` until it is consumed (and, with `.finish`, the stream ended),
    /// growing the output as needed.
    private func deflate(_ input: inout ByteBuffer, flush: CompressNIOFlush) throws -> ByteBuffer {
        guard let compressor else { throw CompressNIOError.internalError }
        var output = ByteBuffer()
        output.reserveCapacity(max(4096, compressor.maxSize(from: input)))
        while true {
            do {
                try compressor.deflate(from: &input, to: &output, flush: flush)
                if flush == .finish || input.readableBytes == 0 { return output }
            } catch let error as CompressNIOError where error == .bufferOverflow {
                // More output than room: make room and go on.
            }
            output.reserveCapacity(minimumWritableBytes: max(4096, output.readableBytes))
        }
    }
}
