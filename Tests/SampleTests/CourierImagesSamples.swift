import Courier
import CourierImages
import Foundation

/// The samples of the `CourierImages` module (its `///` examples and its DocC catalog), each in
/// the context it takes for granted. Nothing calls them: the build compiles them.
enum CourierImagesSamples {
    /// A search result with artwork, as `StoreSearch` has them.
    struct SearchResult: Sendable {
        var imageSmall: URL?
    }

    /// Gathers the values of samples that are bare expressions, so that none is unused.
    @resultBuilder
    enum Values {
        static func buildExpression<Value>(_ value: Value) -> [Any] { [value] }
        static func buildBlock(_ components: [Any]...) -> [Any] { components.flatMap { $0 } }
    }

    // MARK: - CourierImages.docc/CourierImages.md, ImagePipeline.swift

    static func pipeline(transport: some HTTPTransport, cachesURL: URL, result: SearchResult) async throws {
        let pipeline = try ImagePipeline(transport: transport, cacheDirectory: cachesURL.appending(path: "artwork"))
        if let url = result.imageSmall {
            let artwork = try await pipeline.image(for: url)
            print(artwork.format, artwork.pixelWidth, artwork.pixelHeight)
        }
    }

    // MARK: - ImageFormat.swift

    @Values
    static func imageFormat() -> [Any] {
        ImageFormat(signatureOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])  // .png
    }

    // MARK: - ImageHeader.swift

    static func imageHeader(data: Data) throws {
        let header = try ImageHeader(reading: data)
        print(header.format, header.pixelWidth, header.pixelHeight)  // png 100 100
    }
}
