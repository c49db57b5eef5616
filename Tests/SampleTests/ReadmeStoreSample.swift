// The README's store sample ("courier store"), whose imports must open a file.

import Courier
import CourierImages
import Foundation
import StoreSearch

// swift-format-ignore
func searchTheStore(transport: any HTTPTransport, cachesURL: URL) async throws {
    let store = HTTPClient(transport: transport, configuration: .iTunesStore())
    let session = SearchSession(store: store)            // a new search cancels the one in flight
    guard let found = try await session.search("stephen king", category: .ebook) else { return }  // nil: superseded

    let pipeline = try ImagePipeline(transport: transport, cacheDirectory: cachesURL)
    if let url = found.results.first?.imageLarge {
        let cover = try await pipeline.image(for: url)
        print(cover.format, cover.pixelWidth, cover.pixelHeight, cover.source)   // png 100 100 network
    }
}
