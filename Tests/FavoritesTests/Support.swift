import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Favorites
import Foundation

/// A favourites database in a directory of its own, deleted afterwards.
func withTemporaryStore<Result>(_ body: (FavoritesStore) async throws -> Result) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try FavoritesStore(at: directory.appendingPathComponent("favorites.sqlite"))
    return try await body(store)
}

/// A client for a fresh loopback TMDB stand-in, with its access token.
func withTMDB(
    credentials: TMDBCredentials? = .accessToken(TMDBRoutes.accessToken),
    path: String = "",
    _ body: @Sendable (HTTPClient, TestServer) async throws -> Void
) async throws {
    try await TestServer.withRunning { server in
        try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
            let tmdb = HTTPClient(
                transport: transport,
                configuration: .tmdb(baseURL: server.url(path), credentials: credentials, timeout: .seconds(60))
            )
            try await body(tmdb, server)
        }
    }
}
