import Courier
import CourierApp
import CourierAsyncHTTPClient
import CourierImages
import Favorites
import Foundation
import LibraryKit
import StoreSearch

/// The samples of the `CourierApp` module (its `///` examples and its DocC catalog), each in the
/// context it takes for granted. Nothing calls them: the build compiles them.
enum CourierAppSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - CourierApp.docc/CourierApp.md, AppServer.swift

    static func appServer(services: AppServices) async throws {
        let server = try AppServer(services: services)
        try await server.run(host: "127.0.0.1", port: 8090) { url in print("Open \(url)/") }
    }

    // MARK: - AppServices.swift

    static func appServices(libraryURL: URL, credentials: TMDBCredentials?, databaseURL: URL) async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            let services = try AppServices(
                library: HTTPClient(transport: transport, configuration: .library(service: libraryURL)),
                store: HTTPClient(transport: transport, configuration: .iTunesStore()),
                artwork: ImagePipeline(transport: transport, cacheDirectory: nil),
                tmdb: HTTPClient(transport: transport, configuration: .tmdb(credentials: credentials)),
                favorites: FavoritesStore(at: databaseURL),
                feeds: HTTPClient(transport: transport)
            )
            try await AppServer(services: services).run(port: 8090)
        }
    }

    // MARK: - OfflineTransport.swift

    // swift-format-ignore
    static func offlineTransport() throws {
        let store = HTTPClient(transport: OfflineTransport(try AppExamples.storeRecording()), configuration: .iTunesStore())
        keep(store)
    }
}
