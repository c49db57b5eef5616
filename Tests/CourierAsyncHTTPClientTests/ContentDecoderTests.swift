import CompressNIO
import Courier
import CourierTestServer
import CourierTestTraits
import Foundation
import NIOCore
import Testing

@testable import CourierAsyncHTTPClient

/// The decoder alone, in process: every way a compressed body can be cut into pieces.
@Suite(.loadLimited)
struct ContentDecoderTests {
    static let text = CodingRoutes.text(count: 50_000)

    /// Decodes `body` pushed in pieces of `size` (the last may be shorter).
    static func decode(
        _ body: [UInt8],
        _ codings: [ContentCoding],
        pieces size: Int,
        limit: Int = .max
    ) throws(ContentDecoder.Failure) -> [UInt8] {
        let decoder = ContentDecoder(codings: codings, limit: limit)
        var output: [UInt8] = []
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + size)
            decoder.push(ByteBuffer(bytes: body[offset..<end]))
            while let window = try decoder.next() {
                #expect(window.readableBytes <= ContentDecoder.windowSize)
                output += window.readableBytesView
            }
            offset = end
        }
        try decoder.finish()
        return output
    }

    @Test(arguments: [1, 2, 3, 5, 64, 1000, 1 << 20])
    func everyPieceSizeDecodesTheSame(size: Int) throws {
        let gzip = CodingRoutes.compress(Self.text, .gzip)
        #expect(try Self.decode(gzip, [.gzip], pieces: size) == Self.text)
        #expect(try Self.decode(CodingRoutes.compress(Self.text, .zlib), [.deflate], pieces: size) == Self.text)
        #expect(try Self.decode(CodingRoutes.compress(Self.text, .deflate), [.deflate], pieces: size) == Self.text)
        let chain = CodingRoutes.compress(CodingRoutes.compress(Self.text, .zlib), .gzip)
        #expect(try Self.decode(chain, [.gzip, .deflate], pieces: size) == Self.text)
        // Members, the second's magic bytes split between pieces at every size.
        let members =
            CodingRoutes.compress(Array(Self.text[..<777]), .gzip)
            + CodingRoutes.compress(Array(Self.text[777...]), .gzip)
        #expect(try Self.decode(members, [.gzip], pieces: size) == Self.text)
    }

    /// A fuzzer find (Fuzz/findings/coding): a piece whose last bytes inflate past a full window
    /// leaves the rest of that output in zlib, to be written without more input; it was taken
    /// for a stream cut short.
    @Test
    func outputHeldInZlibWhenTheInputRunsOutIsWritten() throws {
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Fuzz/findings/coding/crash-window-full-at-the-end-of-input"
            )
        let input = Array(try Data(contentsOf: finding))
        let text = Array(input.dropFirst())
        for algorithm in [ZlibAlgorithm.deflate, .zlib, .gzip] {
            let coding: ContentCoding = algorithm == .gzip ? .gzip : .deflate
            let body = CodingRoutes.compress(text, algorithm)
            for seed in 0..<13 {
                // Cut as the harness cuts.
                let decoder = ContentDecoder(codings: [coding], limit: .max)
                var output: [UInt8] = []
                var offset = 0
                var step = seed + 1
                while offset < body.count {
                    let end = min(body.count, offset + step)
                    decoder.push(ByteBuffer(bytes: body[offset..<end]))
                    while let window = try decoder.next() { output += window.readableBytesView }
                    offset = end
                    step = step * 5 % 23 + 1
                }
                try decoder.finish()
                #expect(output == text, "\(algorithm), pieces from \(seed + 1)")
            }
        }
    }

    @Test
    func anEmptyBodyIsEmpty() throws {
        #expect(try Self.decode([], [.gzip], pieces: 1).isEmpty)
        #expect(try Self.decode(CodingRoutes.compress([], .gzip), [.gzip], pieces: 1).isEmpty)
    }

    @Test(arguments: [1, 7, 4096])
    func everyCutIsTruncated(size: Int) throws {
        let gzip = CodingRoutes.compress(Array(Self.text[..<3000]), .gzip)
        let zlib = CodingRoutes.compress(Array(Self.text[..<3000]), .zlib)
        for cut in [1, 2, 9, 10, gzip.count / 2, gzip.count - 8, gzip.count - 1] {
            #expect(throws: ContentDecoder.Failure.truncated(.gzip), "cut at \(cut)") {
                try Self.decode(Array(gzip[..<cut]), [.gzip], pieces: size)
            }
        }
        for cut in [1, zlib.count / 2, zlib.count - 1] {
            #expect(throws: ContentDecoder.Failure.truncated(.deflate), "cut at \(cut)") {
                try Self.decode(Array(zlib[..<cut]), [.deflate], pieces: size)
            }
        }
    }

    @Test
    func strayBytesAndCorruptDataAreRefused() throws {
        let gzip = CodingRoutes.compress(Self.text, .gzip)
        for stray: [UInt8] in [[0], [0x1F], [0x1F, 0x00], Array("garbage".utf8)] {
            #expect(throws: ContentDecoder.Failure.trailingData(.gzip)) {
                try Self.decode(gzip + stray, [.gzip], pieces: 100)
            }
        }
        #expect(throws: ContentDecoder.Failure.trailingData(.deflate)) {
            try Self.decode(CodingRoutes.compress(Self.text, .zlib) + [1, 2, 3], [.deflate], pieces: 100)
        }
        #expect(throws: ContentDecoder.Failure.corrupt(.gzip)) {
            try Self.decode(Array("not gzip at all".utf8), [.gzip], pieces: 4)
        }
        var spoiled = gzip
        for index in 100..<110 { spoiled[index] ^= 0xFF }
        #expect(throws: ContentDecoder.Failure.self) { try Self.decode(spoiled, [.gzip], pieces: 512) }
    }

    @Test
    func theLimitStopsABombAfterAWindow() throws {
        let decoder = ContentDecoder(codings: [.gzip], limit: 1 << 20)
        decoder.push(ByteBuffer(bytes: CodingRoutes.bomb.prefix(64 << 10)))
        var decoded = 0
        #expect(throws: ContentDecoder.Failure.tooLarge) {
            while let window = try decoder.next() { decoded += window.readableBytes }
        }
        // No more than the limit was handed over, in windows, before the failure.
        #expect(decoded <= 1 << 20)
        #expect(decoded > (1 << 20) - ContentDecoder.windowSize)
    }
}
