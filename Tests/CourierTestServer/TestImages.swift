public import Foundation

/// Real, small images for the fake store's artwork: a solid-colour PNG (stored deflate blocks)
/// or GIF (an LZW stream that clears before every pixel, so codes stay 3 bits wide). Both open
/// in any viewer.
public enum TestImages {
    /// A `width`×`height` PNG of one colour.
    public static func png(width: Int, height: Int, red: UInt8 = 0x2E, green: UInt8 = 0x86, blue: UInt8 = 0xC1) -> Data
    {
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits per sample, RGB, deflate, no filter, no interlace
        var rows: [UInt8] = []
        rows.reserveCapacity(height * (1 + 3 * width))
        for _ in 0..<height {
            rows.append(0)  // filter type: none
            for _ in 0..<width { rows += [red, green, blue] }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(rows))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// A `width`×`height` GIF of one colour.
    public static func gif(width: Int, height: Int) -> Data {
        var gif = Array("GIF89a".utf8)
        gif += littleEndian(UInt16(width)) + littleEndian(UInt16(height))
        gif += [0x80, 0, 0]  // a global colour table of 2 entries
        gif += [0xC1, 0x86, 0x2E, 0xFF, 0xFF, 0xFF]
        gif += [0x2C, 0, 0, 0, 0] + littleEndian(UInt16(width)) + littleEndian(UInt16(height)) + [0]
        gif.append(2)  // LZW minimum code size
        var bits = BitWriter()
        for _ in 0..<(width * height) {
            bits.write(4, width: 3)  // clear
            bits.write(0, width: 3)  // colour 0
        }
        bits.write(5, width: 3)  // end of information
        var data = bits.finished[...]
        while !data.isEmpty {
            let block = data.prefix(255)
            gif.append(UInt8(block.count))
            gif += block
            data = data.dropFirst(block.count)
        }
        gif += [0, 0x3B]
        return Data(gif)
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var count = 0

        mutating func write(_ value: UInt32, width: Int) {
            current |= value << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(current & 0xFF))
                current >>= 8
                count -= 8
            }
        }

        var finished: [UInt8] { count > 0 ? bytes + [UInt8(current & 0xFF)] : bytes }
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var rest = data[...]
        repeat {
            let block = rest.prefix(65535)
            rest = rest.dropFirst(block.count)
            out.append(rest.isEmpty ? 1 : 0)
            out += littleEndian(UInt16(block.count)) + littleEndian(~UInt16(block.count))
            out += block
        } while !rest.isEmpty
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func littleEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }
}
