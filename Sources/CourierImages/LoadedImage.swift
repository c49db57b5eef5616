public import Foundation

/// An image's bytes with what its header says, and where this copy came from.
public struct LoadedImage: Sendable, Hashable {
    /// Where a loaded image came from.
    public enum Source: String, Sendable, Hashable {
        /// Downloaded from the origin.
        case network
        /// The pipeline's memory cache.
        case memory
        /// A fresh response in the HTTP cache; nothing was sent.
        case httpCache
        /// The HTTP cache's copy, confirmed by the origin with `304 Not Modified`.
        case revalidated
    }

    /// The URL it was loaded from.
    public var url: URL
    /// The encoded image, as the server sent it.
    public var data: Data
    /// Format and pixel size, from the header.
    public var header: ImageHeader
    /// Where this copy came from.
    public var source: Source

    /// An image.
    public init(url: URL, data: Data, header: ImageHeader, source: Source) {
        self.url = url
        self.data = data
        self.header = header
        self.source = source
    }

    /// The format, from the signature.
    public var format: ImageFormat { header.format }
    /// Width in pixels.
    public var pixelWidth: Int { header.pixelWidth }
    /// Height in pixels.
    public var pixelHeight: Int { header.pixelHeight }
}
