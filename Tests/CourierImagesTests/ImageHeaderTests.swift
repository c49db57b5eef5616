import CourierImages
import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// Format and pixel size from the first bytes, for every format and the broken cases.
@Suite(.loadLimited)
struct ImageHeaderTests {
    @Test func pngAndGifFromRealImages() throws {
        #expect(
            try ImageHeader(reading: TestImages.png(width: 60, height: 45))
                == ImageHeader(format: .png, pixelWidth: 60, pixelHeight: 45)
        )
        #expect(
            try ImageHeader(reading: TestImages.gif(width: 100, height: 7))
                == ImageHeader(format: .gif, pixelWidth: 100, pixelHeight: 7)
        )
    }

    /// A JFIF file's start: SOI, APP0, an Exif APP1, fill bytes, DQT, then the frame header.
    private func jpeg(frameMarker: UInt8, width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let exif = Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0x2A, count: 300)
        bytes += [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        bytes += [0xFF, 0xFF]  // fill bytes before a marker are allowed
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        bytes += [
            0xFF, frameMarker, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8),
            UInt8(width & 0xFF), 0x03,
        ]
        bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]
        return bytes
    }

    @Test(arguments: [UInt8(0xC0), 0xC1, 0xC2])
    func jpegFrameHeadersGiveTheSize(_ marker: UInt8) throws {
        let header = try ImageHeader(reading: jpeg(frameMarker: marker, width: 1920, height: 1080))
        #expect(header == ImageHeader(format: .jpeg, pixelWidth: 1920, pixelHeight: 1080))
    }

    @Test func aJpegWithoutAFrameHeaderIsBroken() {
        let noFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x00]
        #expect(throws: ImageHeaderError.malformed(.jpeg, reason: "the image data starts before any frame header")) {
            try ImageHeader(reading: noFrame)
        }
        let cut = Array(jpeg(frameMarker: 0xC0, width: 10, height: 10).prefix(100))
        #expect(throws: ImageHeaderError.self) { try ImageHeader(reading: cut) }
    }

    private func riff(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(4 + 8 + payload.count)
        let little: (UInt32) -> [UInt8] = {
            [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 24)]
        }
        return Array("RIFF".utf8) + little(size) + Array("WEBP".utf8) + Array(chunk.utf8)
            + little(UInt32(payload.count)) + payload
    }

    @Test func webpLossyLosslessAndExtended() throws {
        // VP8: frame tag, start code, 14-bit width and height (the top two bits are scaling).
        let lossy = riff(
            "VP8 ",
            [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x20, 0x03 | 0x40, 0x58, 0x02] + [UInt8](repeating: 0, count: 10)
        )
        #expect(try ImageHeader(reading: lossy) == ImageHeader(format: .webp, pixelWidth: 800, pixelHeight: 600))
        // VP8L: 0x2F, then width-1 and height-1 in 14 bits each, little-endian.
        let bits: UInt32 = (640 - 1) | (480 - 1) << 14
        let lossless = riff(
            "VP8L",
            [0x2F, UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)]
                + [UInt8](repeating: 0, count: 10)
        )
        #expect(try ImageHeader(reading: lossless) == ImageHeader(format: .webp, pixelWidth: 640, pixelHeight: 480))
        // VP8X: flags, reserved, canvas width-1 and height-1 in 24 bits each.
        let extended = riff(
            "VP8X",
            [0x10, 0, 0, 0, 0x3F, 0x1F, 0x00, 0xFF, 0x0F, 0x00] + [UInt8](repeating: 0, count: 10)
        )
        #expect(try ImageHeader(reading: extended) == ImageHeader(format: .webp, pixelWidth: 8000, pixelHeight: 4096))
        #expect(throws: ImageHeaderError.self) {
            try ImageHeader(reading: riff("ALPH", [UInt8](repeating: 0, count: 20)))
        }
    }

    @Test func otherBytesAreNotImages() {
        let html = Array("<!DOCTYPE html><html>".utf8)
        #expect(throws: ImageHeaderError.unknownSignature(Array(html.prefix(8)))) { try ImageHeader(reading: html) }
        #expect(
            ImageHeaderError.unknownSignature(Array(html.prefix(8))).description
                == "the bytes start with 3C 21 44 4F 43 54 59 50 ('<!DOCTYP'), which is no PNG, JPEG, GIF or WebP signature"
        )
        #expect(ImageHeaderError.unknownSignature([]).description == "the body is empty")
        let png = TestImages.png(width: 4, height: 4)
        #expect(throws: ImageHeaderError.self) { try ImageHeader(reading: png.prefix(20)) }
        var zero = Array(png)
        zero[16...19] = [0, 0, 0, 0]
        #expect(throws: ImageHeaderError.malformed(.png, reason: "the header gives a size of 0×4 pixels")) {
            try ImageHeader(reading: zero)
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SeededGenerator()
        let signatures: [[UInt8]] = [
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], [0xFF, 0xD8, 0xFF], Array("GIF89a".utf8),
            Array("RIFF\0\0\0\0WEBP".utf8),
        ]
        for _ in 0..<2000 {
            let signature = signatures.randomElement(using: &generator) ?? []
            let tail = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? ImageHeader(reading: signature + tail)
        }
    }
}
