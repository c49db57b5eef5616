/// What an image's header says: its format and size in pixels, read without decoding pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The format, from the signature.
    public var format: ImageFormat
    /// Width in pixels.
    public var pixelWidth: Int
    /// Height in pixels.
    public var pixelHeight: Int

    /// A header.
    public init(format: ImageFormat, pixelWidth: Int, pixelHeight: Int) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// Reads the format and pixel size from the start of `bytes`.
    ///
    /// ```swift
    /// let header = try ImageHeader(reading: data)
    /// print(header.format, header.pixelWidth, header.pixelHeight)  // png 100 100
    /// ```
    ///
    /// - Throws: ``ImageHeaderError`` when the bytes are not PNG, JPEG, GIF or WebP, or the
    ///   header is cut short or inconsistent.
    public init(reading data: some Collection<UInt8>) throws(ImageHeaderError) {
        let bytes = Array(data)
        guard let format = ImageFormat(signatureOf: bytes) else {
            throw .unknownSignature(Array(bytes.prefix(8)))
        }
        let reader = ByteReader(bytes: bytes, format: format)
        let (width, height) =
            switch format {
            case .png: try reader.pngSize()
            case .jpeg: try reader.jpegSize()
            case .gif: try reader.gifSize()
            case .webp: try reader.webpSize()
            }
        guard width > 0, height > 0 else {
            throw .malformed(format, reason: "the header gives a size of \(width)×\(height) pixels")
        }
        self.init(format: format, pixelWidth: width, pixelHeight: height)
    }
}

/// Why bytes are not a usable image.
public enum ImageHeaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The first bytes (up to 8) match no PNG, JPEG, GIF or WebP signature.
    case unknownSignature([UInt8])
    /// The signature is right but the header is cut short or inconsistent.
    case malformed(ImageFormat, reason: String)

    /// What is wrong, for people.
    public var description: String {
        switch self {
        case .unknownSignature(let bytes) where bytes.isEmpty:
            "the body is empty"
        case .unknownSignature(let bytes):
            "the bytes start with \(bytes.map { hex($0) }.joined(separator: " ")) (\(printable(bytes))), "
                + "which is no PNG, JPEG, GIF or WebP signature"
        case .malformed(let format, let reason):
            "the \(format.rawValue.uppercased()) header is broken: \(reason)"
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private func printable(_ bytes: [UInt8]) -> String {
        "'" + String(bytes.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." }) + "'"
    }
}

/// Reads big- and little-endian integers at offsets, throwing instead of trapping past the end.
private struct ByteReader {
    let bytes: [UInt8]
    let format: ImageFormat

    private func need(_ end: Int) throws(ImageHeaderError) {
        guard end <= bytes.count else {
            throw .malformed(format, reason: "it ends after \(bytes.count) bytes, before the size")
        }
    }

    func bigEndian(_ offset: Int, _ count: Int) throws(ImageHeaderError) -> Int {
        try need(offset + count)
        return bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(_ offset: Int, _ count: Int) throws(ImageHeaderError) -> Int {
        try need(offset + count)
        return bytes[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    func byte(_ offset: Int) throws(ImageHeaderError) -> UInt8 {
        try need(offset + 1)
        return bytes[offset]
    }

    func matches(_ text: String, at offset: Int) -> Bool {
        bytes.dropFirst(offset).starts(with: text.utf8)
    }

    /// PNG: the first chunk must be `IHDR`; width and height are its first two 32-bit fields.
    func pngSize() throws(ImageHeaderError) -> (Int, Int) {
        try need(24)
        guard matches("IHDR", at: 12) else { throw .malformed(.png, reason: "the first chunk is not IHDR") }
        return (try bigEndian(16, 4), try bigEndian(20, 4))
    }

    /// GIF: the logical screen size, two little-endian 16-bit fields after the signature.
    func gifSize() throws(ImageHeaderError) -> (Int, Int) {
        (try littleEndian(6, 2), try littleEndian(8, 2))
    }

    /// JPEG: walks the marker segments to the first start-of-frame (any SOFn but DHT, JPG and
    /// DAC), whose fields hold the height and then the width.
    func jpegSize() throws(ImageHeaderError) -> (Int, Int) {
        var offset = 2
        while true {
            guard try byte(offset) == 0xFF else {
                throw .malformed(.jpeg, reason: "expected a marker at byte \(offset)")
            }
            while try byte(offset) == 0xFF { offset += 1 }  // fill bytes
            let marker = try byte(offset)
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // markers without a segment
            case 0xD9, 0xDA:
                throw .malformed(.jpeg, reason: "the image data starts before any frame header")
            case 0xC0...0xCF where ![0xC4, 0xC8, 0xCC].contains(marker):
                return (try bigEndian(offset + 5, 2), try bigEndian(offset + 3, 2))
            default:
                let length = try bigEndian(offset, 2)
                guard length >= 2 else {
                    throw .malformed(
                        .jpeg,
                        reason: "segment FF\(String(marker, radix: 16, uppercase: true)) has length \(length)"
                    )
                }
                offset += length
            }
        }
    }

    /// WebP: the first chunk says which kind — lossy `VP8 `, lossless `VP8L` or extended `VP8X`
    /// — and each keeps the size its own way.
    func webpSize() throws(ImageHeaderError) -> (Int, Int) {
        try need(30)
        if matches("VP8 ", at: 12) {
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else {
                throw .malformed(.webp, reason: "the VP8 frame has no start code")
            }
            return (try littleEndian(26, 2) & 0x3FFF, try littleEndian(28, 2) & 0x3FFF)
        }
        if matches("VP8L", at: 12) {
            guard bytes[20] == 0x2F else { throw .malformed(.webp, reason: "the VP8L stream has no signature byte") }
            let bits = try littleEndian(21, 4)
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        }
        if matches("VP8X", at: 12) {
            return (try littleEndian(24, 3) + 1, try littleEndian(27, 3) + 1)
        }
        throw .malformed(.webp, reason: "the first chunk is not VP8, VP8L or VP8X")
    }
}
