import ArgumentParser
import Courier
import CourierApp
import CourierAsyncHTTPClient
import CourierCassettes
import CourierImages
import Favorites
import Foundation
import LibraryKit
import Logging
import StoreSearch

/// `courier app`: the chapters' apps in a browser.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Open the chapters' apps in a browser: libraries, store, movies, feeds and refs.",
        discussion: """
            Serves one page with a tab per app on http://127.0.0.1:8090/. With no options it \
            needs no network and no credentials: the libraries are the built-in data, the store \
            and TMDB answer from recordings shipped with Courier (the store knows searches for \
            "stephen king", "king" and "shining" as you type them), and the Feed tab has an \
            example feed. Point a tab at a live service with --library, --store-service and \
            --tmdb-service (TMDB also needs TMDB_ACCESS_TOKEN or TMDB_API_KEY). Favourites are \
            the ones courier movies keeps, so a movie added in a terminal appears on the page.

            The app answers only to its own address, and only its page may use its API. Ctrl-C \
            stops it.

            Examples:
              courier app
              courier app --port 9000 --store-service https://itunes.apple.com
              courier app --library http://127.0.0.1:8080 --database /tmp/favorites.sqlite
            """
    )

    @Option(help: "A library service (courier serve) for the Libraries tab instead of the built-in data.")
    var library: String?

    @Option(help: "The store's address (https://itunes.apple.com, or a stand-in) instead of the recording.")
    var storeService: String?

    @Option(
        name: .customLong("store-locale"),
        help: """
            With --store-service: the locale every store search is made for, such as fr-FR or ja_JP, or C for \
            the store's defaults (default: each browser's language).
            """
    )
    var storeLocaleName: String?

    @Option(help: "TMDB's address instead of the recording; the real one needs TMDB credentials.")
    var tmdbService: String?

    @OptionGroup var database: DatabaseOption

    @OptionGroup var server: ServerOptions

    @OptionGroup var security: SecurityOptions

    func validate() throws {
        if let library { _ = try ServiceURL.parse(library, option: "--library", example: "http://127.0.0.1:8080") }
        if let storeService {
            _ = try ServiceURL.parse(
                storeService,
                option: "--store-service",
                example: ITunesStore.defaultBaseURL.absoluteString
            )
        }
        if let tmdbService {
            _ = try ServiceURL.parse(
                tmdbService,
                option: "--tmdb-service",
                example: TMDB.defaultBaseURL.absoluteString
            )
        }
        if let storeLocaleName {
            guard storeService != nil else {
                throw ValidationError("--store-locale applies to --store-service: the recording names no locale.")
            }
            let locale = StoreLocale(identifier: storeLocaleName)
            guard locale != StoreLocale() || ["c", "posix"].contains(storeLocaleName.lowercased()) else {
                throw ValidationError(
                    "--store-locale '\(storeLocaleName)' is not a locale such as fr-FR, ja_JP or C."
                )
            }
        }
    }

    func run() async throws {
        let favorites = try database.open()
        let credentials = TMDBCredentials(environment: CommandContext.environment)
        let tmdbURL = try tmdbService.map {
            try ServiceURL.parse($0, option: "--tmdb-service", example: TMDB.defaultBaseURL.absoluteString)
        }
        if let tmdbURL, tmdbURL.host?.lowercased() == TMDB.defaultBaseURL.host, credentials == nil {
            throw CommandFailure(TMDBCredentials.commandLineHelp(serviceOption: "--tmdb-service"), status: .usage)
        }
        let host = server.host
        let logger = server.logger(label: "courier.app", default: .notice)
        if !Self.isLoopback(host) {
            Terminal.error(
                """
                warning: --host \(host) makes the app reachable from other machines: anyone who can \
                reach it can use its page, and through it your favourites.
                """
            )
        }
        let libraryURL = try library.map {
            try ServiceURL.parse($0, option: "--library", example: "http://127.0.0.1:8080")
        }
        // The built-in library and the example repository are this process, on 127.0.0.1:
        // never asked of a proxy.
        try await security.withTransport(direct: ["127.0.0.1"]) { transport in
            let serve: @Sendable (URL) async throws -> Void = { libraryAddress in
                var quiet = logger
                quiet.logLevel = max(logger.logLevel, .warning)
                try await ExampleRepository.withService(logger: quiet) { repository in
                    var services = try makeServices(
                        transport: transport,
                        libraryURL: libraryAddress,
                        favorites: favorites,
                        tmdbURL: tmdbURL,
                        credentials: credentials
                    )
                    services.exampleRepository = repository
                    // The artwork cache's background revalidations end before the transport does.
                    do {
                        try await serveApp(services, logger: logger)
                    } catch {
                        await services.artwork.shutdown()
                        throw error
                    }
                    await services.artwork.shutdown()
                }
            }
            if let libraryURL {
                try await serve(libraryURL)
            } else {
                var quiet = logger
                quiet.logLevel = max(logger.logLevel, .warning)
                try await EmbeddedLibrary.withService(logger: quiet, serve)
            }
        }
        Terminal.output("Stopped.")
    }

    private func makeServices(
        transport: any HTTPTransport,
        libraryURL: URL,
        favorites: FavoritesStore,
        tmdbURL: URL?,
        credentials: TMDBCredentials?
    ) throws -> AppServices {
        let policy = security.policy
        var notes: [String] = []
        let storeTransport: any HTTPTransport
        let storeURL: URL
        var storeLocale: StoreLocale?
        if let storeService {
            storeURL = try ServiceURL.parse(
                storeService,
                option: "--store-service",
                example: ITunesStore.defaultBaseURL.absoluteString
            )
            storeTransport = transport
            storeLocale = storeLocaleName.map(StoreLocale.init(identifier:))
        } else {
            let recording = try Self.recording(AppExamples.storeRecording)
            storeTransport = OfflineTransport(recording)
            storeURL = ITunesStore.defaultBaseURL
            // The recording's searches name no country or language.
            storeLocale = StoreLocale()
            notes.append(
                "The store answers from a recording: type “stephen king”, “king” or “shining” (start courier app with --store-service for the live store)."
            )
        }
        let tmdb: HTTPClient
        if tmdbURL != nil || credentials != nil {
            tmdb = HTTPClient(
                transport: transport,
                configuration: .tmdb(
                    baseURL: tmdbURL ?? TMDB.defaultBaseURL,
                    credentials: credentials,
                    securityPolicy: policy
                )
            )
        } else {
            let recording = try Self.recording(AppExamples.tmdbRecording)
            tmdb = HTTPClient(
                transport: OfflineTransport(recording),
                configuration: .tmdb(
                    baseURL: AppExamples.baseURL(of: recording) ?? TMDB.defaultBaseURL,
                    credentials: nil
                )
            )
            notes.append(
                "Ratings come from a TMDB recording that knows Spirited Away, Amélie, Dune and Parasite (set TMDB_ACCESS_TOKEN for live ratings)."
            )
        }
        let artworkCache: HTTPCache
        let storeCache: HTTPCache
        do {
            artworkCache = try HTTPCache(memoryCapacity: 32 << 20, directory: nil)
            // Repeated searches, which the store marks fresh for a day, as the chapter's session cache.
            storeCache = try HTTPCache(memoryCapacity: 8 << 20, directory: nil)
        } catch {
            throw CommandFailure("\(error)", status: .unexpected)
        }
        return AppServices(
            library: HTTPClient(
                transport: transport,
                configuration: .library(service: libraryURL, securityPolicy: policy)
            ),
            store: HTTPClient(
                transport: storeTransport,
                configuration: .iTunesStore(baseURL: storeURL, securityPolicy: policy, cache: storeCache)
            ),
            storeLocale: storeLocale,
            artwork: ImagePipeline(
                client: HTTPClient(
                    transport: storeTransport,
                    configuration: .init(
                        securityPolicy: policy,
                        timeout: .seconds(30),
                        cache: artworkCache
                    )
                )
            ),
            tmdb: tmdb,
            favorites: favorites,
            feeds: HTTPClient(transport: transport, configuration: .init(securityPolicy: policy)),
            notes: notes
        )
    }

    private func serveApp(_ services: AppServices, logger: Logger) async throws {
        let app: AppServer
        do {
            app = try AppServer(services: services, logger: logger)
        } catch {
            throw CommandFailure(error.description, status: .unexpected)
        }
        let location = favorites(services.favorites)
        do {
            try await app.run(
                host: server.host,
                port: server.port ?? 8090,
                limits: server.limits,
                handlingSignals: server.handlesSignals
            ) { url in
                Terminal.output(
                    """
                    Courier app on \(url)/ — open it in a browser.
                    Favourites: \(location). Ctrl-C stops it.
                    """
                )
            }
        } catch let error as AppServerError {
            throw CommandFailure(error.description, status: .network)
        }
    }

    private func favorites(_ store: FavoritesStore) -> String {
        store.location.path
    }

    private static func recording(_ load: () throws(AppServerError) -> Cassette) throws -> Cassette {
        do {
            return try load()
        } catch {
            throw CommandFailure(error.description, status: .unexpected)
        }
    }

    private static func isLoopback(_ host: String) -> Bool {
        TransportSecurityPolicy.isLoopback(authority: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
    }
}
