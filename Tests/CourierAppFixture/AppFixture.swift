import Courier
import CourierApp
import CourierAsyncHTTPClient
public import CourierImages
public import CourierServerKit
public import CourierTestServer
public import Favorites
public import Foundation
import GitWire
import Hummingbird
import HummingbirdTesting
import LibraryKit
import StoreSearch

/// The app on a free loopback port, its tabs pointed at loopback stand-ins: the test server's
/// store, artwork and TMDB routes, the built-in library service, a favourites database in a
/// temporary directory.
public struct AppFixture: Sendable {
    /// The app's address, `http://127.0.0.1:PORT`.
    public let url: URL
    /// The stand-in for the store, artwork and TMDB.
    public let server: TestServer
    /// The favourites the app shows.
    public let favorites: FavoritesStore
    /// The artwork pipeline the app loads through.
    public let artwork: ImagePipeline

    /// The page with the tab `tab` open.
    public func page(_ tab: String) -> URL {
        URL(string: "\(url.absoluteString)/#\(tab)") ?? url
    }

    /// Runs `body` with the app on a free loopback port and its stand-ins, which stop when it
    /// returns; the artwork pipeline downloads at most `maximumConcurrentDownloads` images at once.
    public static func withApp<Result: Sendable>(
        maximumConcurrentDownloads: Int = 6,
        limits: ConnectionLimits = .default,
        _ body: @Sendable (AppFixture) async throws -> Result
    ) async throws -> Result {
        try await withServices(maximumConcurrentDownloads: maximumConcurrentDownloads) {
            server,
            favorites,
            artwork,
            app in
            let (addresses, announce) = AsyncStream.makeStream(of: URL.self)
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask {
                    defer { announce.finish() }
                    try await app.run(host: "127.0.0.1", port: 0, limits: limits, handlingSignals: false) {
                        announce.yield($0)
                    }
                    return nil
                }
                var iterator = addresses.makeAsyncIterator()
                guard let url = await iterator.next() else {
                    // The app ended before listening: its error says why.
                    while try await group.next() != nil {}
                    throw WebDriverError("the app did not start")
                }
                defer { group.cancelAll() }
                return try await body(AppFixture(url: url, server: server, favorites: favorites, artwork: artwork))
            }
        }
    }

    /// Runs `body` with the app's routes in this process (no socket: `RouterTransport`) and a
    /// client that opened its page, as its scripts do. The routes see the `Host` `localhost`,
    /// so the page's origin is `http://localhost`.
    public static func withRoutes<Result: Sendable>(
        _ body: @Sendable (AppFixture, AppPageClient) async throws -> Result
    ) async throws -> Result {
        try await withServices(maximumConcurrentDownloads: 6) { server, favorites, artwork, app in
            try await app.withRoutes { router in
                try await Application(router: router).test(.router) { client in
                    let url = URL(string: "http://localhost")!
                    let page = try await AppPageClient.open(url, transport: RouterTransport(client))
                    return try await body(
                        AppFixture(url: url, server: server, favorites: favorites, artwork: artwork),
                        page
                    )
                }
            }
        }
    }

    /// The app over loopback stand-ins: the test server's store, artwork and TMDB routes, the
    /// built-in library service, a favourites database in a temporary directory.
    private static func withServices<Result: Sendable>(
        maximumConcurrentDownloads: Int,
        _ body: @Sendable (TestServer, FavoritesStore, ImagePipeline, AppServer) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-app-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = try FavoritesStore(at: directory.appendingPathComponent("favorites.sqlite"))
        return try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                try await EmbeddedLibrary.withService { libraryURL in
                    try await ExampleRepository.withService { repository in
                        let artwork = ImagePipeline(
                            client: HTTPClient(transport: transport, configuration: .init(timeout: .seconds(60))),
                            configuration: .init(maximumConcurrentDownloads: maximumConcurrentDownloads)
                        )
                        let services = AppServices(
                            library: HTTPClient(
                                transport: transport,
                                configuration: .library(service: libraryURL, timeout: .seconds(60))
                            ),
                            store: HTTPClient(
                                transport: transport,
                                configuration: .iTunesStore(
                                    baseURL: server.baseURL,
                                    timeout: .seconds(60),
                                    cache: try HTTPCache(memoryCapacity: 8 << 20, directory: nil)
                                )
                            ),
                            artwork: artwork,
                            tmdb: HTTPClient(
                                transport: transport,
                                configuration: .tmdb(
                                    baseURL: server.baseURL,
                                    credentials: .accessToken(TMDBRoutes.accessToken),
                                    timeout: .seconds(60)
                                )
                            ),
                            favorites: favorites,
                            feeds: HTTPClient(transport: transport, configuration: .init(timeout: .seconds(60))),
                            git: AsyncGitClient(timeout: .seconds(60)),
                            gitOverHTTP: HTTPGitClient(client: HTTPClient(transport: transport), timeout: .seconds(60)),
                            exampleRepository: repository
                        )
                        return try await body(server, favorites, artwork, try AppServer(services: services))
                    }
                }
            }
        }
    }
}
