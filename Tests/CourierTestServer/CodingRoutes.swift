public import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Routes whose bodies are compressed, correctly and not: the content-coding conformance cases.
///
/// `GET /coded?coding=…&bytes=N&shape=…&chunk=K` answers ``text(count:)`` of `bytes` bytes
/// (default 20,000) in `coding`: `gzip`, `x-gzip`, `deflate` (the zlib format), `raw-deflate`
/// (raw deflate labelled `deflate`, as some servers send it), `chain` (zlib, then gzip:
/// `Content-Encoding: deflate, gzip`), `br` (the text as it is, labelled `br`), `identity`.
/// `shape` spoils it: `truncated` (the second half cut off), `corrupt` (bytes in the middle
/// changed), `trailing` (stray bytes after the end), `members` (two gzip members, each half of
/// the text). `chunk` sends the body in pieces of that size, without `Content-Length`.
/// `/coded/movie` is the movie JSON in gzip. `/coded/bomb` is 1 GiB of zeros in a 1 MiB gzip.
public enum CodingRoutes {
    static func add(to router: Router<BasicRequestContext>) {
        router.get("/coded") { request, _ in
            let query = request.uri.queryParameters
            let count = query.get("bytes", as: Int.self) ?? 20_000
            let coding = query.get("coding") ?? "gzip"
            let text = text(count: count)
            var label = coding
            var body: [UInt8]
            switch coding {
            case "gzip", "x-gzip": body = compress(text, .gzip)
            case "deflate": body = compress(text, .zlib)
            case "raw-deflate":
                body = compress(text, .deflate)
                label = "deflate"
            case "chain":
                body = compress(compress(text, .zlib), .gzip)
                label = "deflate, gzip"
            case "identity", "br": body = text
            default: return Response(status: .badRequest)
            }
            switch query.get("shape") {
            case "truncated": body.removeLast(body.count / 2)
            case "corrupt":
                for index in body.count / 2..<min(body.count, body.count / 2 + 8) { body[index] ^= 0x5A }
            case "trailing": body += Array("stray bytes".utf8)
            case "members":
                let half = text.count / 2
                body = compress(Array(text[..<half]), .gzip) + compress(Array(text[half...]), .gzip)
            default: break
            }
            return respond(body, coding: label, chunk: query.get("chunk", as: Int.self))
        }
        router.get("/coded/movie") { _, _ in
            respond(compress(Array(TestRoutes.movieJSON.utf8), .gzip), coding: "gzip", chunk: nil)
        }
        router.get("/coded/bomb") { _, _ in
            respond(bomb, coding: "gzip", chunk: nil)
        }
    }

    /// `count` bytes of varied text: compressible, as JSON is, but not trivially.
    public static func text(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var line = 0
        while bytes.count < count {
            bytes += Array(#"{"row":\#(line),"title":"Book \#(line * 7919 % 10007)","tags":["a","b"]}"#.utf8)
            bytes.append(UInt8(ascii: "\n"))
            line += 1
        }
        return Array(bytes.prefix(count))
    }

    /// `bytes` compressed whole in `algorithm`.
    public static func compress(_ bytes: [UInt8], _ algorithm: ZlibAlgorithm) -> [UInt8] {
        var input = ByteBuffer(bytes: bytes)
        var output = ByteBuffer()
        output.reserveCapacity(bytes.count + 1024)
        guard let compressor = try? ZlibCompressor(algorithm: algorithm) else { return [] }
        try? compressor.deflate(from: &input, to: &output, flush: .finish)
        return Array(output.readableBytesView)
    }

    /// 1 GiB of zeros as one gzip member of about 1 MiB, made without compressing a gibibyte:
    /// zeros compressed a mebibyte at a time with a sync flush come out the same from the second
    /// mebibyte on, so that piece is repeated; then an empty final block, and the trailer with
    /// the CRC-32 of 2^30 zeros and the length.
    public static let bomb: [UInt8] = {
        let zeros = ByteBuffer(repeating: 0, count: 1 << 20)
        guard
            let compressor = try? ZlibCompressor(
                algorithm: .gzip,
                configuration: ZlibConfiguration(compressionLevel: .bestCompression)
            )
        else { return [] }
        func piece() -> [UInt8] {
            var input = zeros
            var output = ByteBuffer()
            output.reserveCapacity(8 << 10)
            try? compressor.deflate(from: &input, to: &output, flush: .sync)
            return Array(output.readableBytesView)
        }
        let first = piece()
        let repeated = piece()
        var body = first
        body.reserveCapacity(first.count + repeated.count * 1023 + 10)
        for _ in 1..<1024 { body += repeated }
        body += [0x03, 0x00]
        body += [0xB0, 0xC2, 0x64, 0x5B]  // CRC-32 of 2^30 zeros, little-endian
        body += [0x00, 0x00, 0x00, 0x40]  // 2^30, little-endian
        return body
    }()

    private static func respond(_ body: [UInt8], coding: String, chunk: Int?) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if coding != "identity" { headers[.contentEncoding] = coding }
        guard let chunk, chunk > 0 else {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                var offset = 0
                while offset < body.count {
                    let end = min(body.count, offset + chunk)
                    try await writer.write(ByteBuffer(bytes: body[offset..<end]))
                    offset = end
                }
                try await writer.finish(nil)
            }
        )
    }
}
