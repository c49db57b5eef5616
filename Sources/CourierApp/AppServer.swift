import Courier
public import CourierServerKit
import Favorites
public import Foundation
import HTTPTypes
package import Hummingbird
import LibraryKit
public import Logging
import NIOCore
import ServiceLifecycle
import StoreSearch

/// `courier app`: the chapters' apps in one page — libraries, store search with artwork,
/// favourite movies that update live, feeds and refs as they arrive.
///
/// ```swift
/// let server = try AppServer(services: services)
/// try await server.run(host: "127.0.0.1", port: 8090) { url in print("Open \(url)/") }
/// ```
///
/// The page and its API answer only to the app's own address, and only the page may use the
/// API (see the README's "A local app is a target too").
public struct AppServer: Sendable {
    /// What the tabs talk to.
    public let services: AppServices
    /// Where access logs (at `info`) and failures go.
    public var logger: Logger
    let token = AppToken()
    private let files: PageFiles

    /// An app over `services`.
    ///
    /// - Throws: ``AppServerError/missingResource(_:)`` when a built-in file of the page cannot be read.
    public init(services: AppServices, logger: Logger = Logger(label: "courier.app")) throws(AppServerError) {
        self.services = services
        self.logger = logger
        self.files = try PageFiles()
    }

    // MARK: - Routes

    /// The app's routes, rating new favourites through `ratings`, for a server listening on
    /// `host`: a name or address it answers to besides loopback ones, unless it is a wildcard.
    func router(ratings: RatingQueue, listeningOn host: String = "127.0.0.1") -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.middlewares.add(AccessLog(target: .pathOnly))
        router.middlewares.add(AppGuard(token: token, hosts: HostGuard(listeningOn: host)))
        router.middlewares.add(ResponseCompression())
        router.middlewares.add(ProblemMiddleware(paths: []))
        files.add(to: router, token: token, notes: services.notes)
        LibraryRoutes(library: services.library).add(to: router)
        StoreRoutes(
            sessions: SearchSessions(store: services.store),
            locale: services.storeLocale,
            artwork: services.artwork,
            store: services.store.configuration.baseURL ?? ITunesStore.defaultBaseURL,
            policy: services.store.configuration.securityPolicy
        )
        .add(to: router)
        MoviesRoutes(store: services.favorites, tmdb: services.tmdb, ratings: ratings).add(to: router)
        FeedRoutes(client: services.feeds, example: services.exampleFeed).add(to: router)
        RefsRoutes(
            git: services.git,
            http: services.gitOverHTTP,
            policy: services.feeds.configuration.securityPolicy,
            example: services.exampleRepository
        )
        .add(to: router)
        return router
    }

    /// Runs `body` with the app's routes in this process (for testing them without a socket),
    /// the rating queue they feed running around it.
    package func withRoutes<Result: Sendable>(
        _ body: (Router<BasicRequestContext>) async throws -> Result
    ) async throws -> Result {
        let ratings = RatingQueue(updater: .init(store: services.favorites, tmdb: services.tmdb), logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await ratings.run() }
            defer { ratings.finish() }
            return try await body(router(ratings: ratings))
        }
    }

    // MARK: - Running

    /// Serves on `host`:`port` until the task is cancelled or, with `handlingSignals`, until
    /// SIGINT or SIGTERM.
    ///
    /// - Parameters:
    ///   - host: A loopback address keeps the app to this machine. Any other address is also a
    ///     name the app answers to; a wildcard (`0.0.0.0`, `::`) listens everywhere but answers
    ///     only to loopback names.
    ///   - port: 0 picks a free port; `onListening` receives the address.
    ///   - limits: How long a connection may stay silent or take to send a request, and how
    ///     many are served at once, as for the library service: idle and trickling clients are
    ///     shed.
    ///   - handlingSignals: Whether SIGINT and SIGTERM stop the server gracefully.
    ///   - onListening: Called once the server accepts connections, with the page's base URL
    ///     (127.0.0.1 for a wildcard address, which names no host).
    /// - Throws: ``AppServerError/cannotListen(address:reason:)`` when the address cannot be
    ///   bound; otherwise what the server's service group throws (`ServiceGroupError`).
    public func run(
        host: String = "127.0.0.1",
        port: Int = 8090,
        limits: ConnectionLimits = .default,
        handlingSignals: Bool = true,
        onListening: @escaping @Sendable (URL) async -> Void = { _ in }
    ) async throws {
        // One queue a run: its lookups end with the run. It starts before the server and
        // stops after it.
        let ratings = RatingQueue(updater: .init(store: services.favorites, tmdb: services.tmdb), logger: logger)
        do {
            // As `courier serve` stops: requests in flight (event streams end at once) get the
            // limits' shutdown timeout, and no client can keep the process from exiting.
            try await limits.serve(
                router(ratings: ratings, listeningOn: host).buildResponder(),
                host: host,
                port: port,
                logger: logger,
                after: [RatingService(ratings: ratings)],
                handlingSignals: handlingSignals,
                onListening: { url in await onListening(ListeningAddress.reachableURL(url, listeningOn: host)) }
            )
        } catch let error as ListenError {
            throw AppServerError.cannotListen(address: error.address, reason: error.reason.description)
        }
    }
}

/// The rating queue as a service: it runs until the service group shuts down.
private struct RatingService: Service {
    let ratings: RatingQueue

    func run() async {
        await withGracefulShutdownHandler {
            await ratings.run()
        } onGracefulShutdown: {
            ratings.finish()
        }
    }
}

/// Why the app could not run.
public enum AppServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address could not be listened on.
    case cannotListen(address: String, reason: String)
    /// A file built into the module (the page, an example) is missing or cannot be read.
    case missingResource(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "Cannot listen on \(address): \(reason)."
        case .missingResource(let name):
            "The app's built-in \(name) is missing or damaged in this build of Courier; please report it."
        }
    }
}
