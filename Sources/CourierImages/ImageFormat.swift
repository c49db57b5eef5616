/// The image formats the pipeline accepts, recognised by their signature bytes — never by the
/// URL's extension or the `Content-Type`, which servers get wrong.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case png
    case jpeg
    case gif
    case webp

    /// The usual file extension: `png`, `jpg`, `gif`, `webp`.
    public var fileExtension: String {
        self == .jpeg ? "jpg" : rawValue
    }

    /// The media type: `image/png`, `image/jpeg`, `image/gif`, `image/webp`.
    public var mediaType: String {
        "image/\(rawValue)"
    }

    /// The format whose signature `bytes` start with, if any.
    ///
    /// ```swift
    /// ImageFormat(signatureOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])  // .png
    /// ```
    public init?(signatureOf bytes: some Collection<UInt8>) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: "GIF87a".utf8) || bytes.starts(with: "GIF89a".utf8) {
            self = .gif
        } else if bytes.starts(with: "RIFF".utf8), bytes.dropFirst(8).starts(with: "WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}
