import Courier
import Favorites
public import Foundation
import HTTPTypes
import Hummingbird
import LibraryKit
public import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

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
    /// - Throws: ``AppServerError/missingResource(_:)`` when the page is missing from the bundle.
    public init(services: AppServices, logger: Logger = Logger(label: "courier.app")) throws(AppServerError) {
        self.services = services
        self.logger = logger
        self.files = try PageFiles()
    }

    // MARK: - Routes

    /// The app's routes, rating new favourites through `ratings`. `host` is a non-loopback
    /// name it answers to as well, if any.
    func router(ratings: RatingQueue, alsoAnsweringTo host: String? = nil) -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.middlewares.add(AppAccessLog(logger: logger))
        router.middlewares.add(AppGuard(token: token, extraHost: host.map { $0.lowercased() }))
        files.add(to: router, token: token, notes: services.notes)
        LibraryRoutes(library: services.library).add(to: router)
        StoreRoutes(sessions: SearchSessions(store: services.store), artwork: services.artwork).add(to: router)
        MoviesRoutes(store: services.favorites, tmdb: services.tmdb, ratings: ratings).add(to: router)
        FeedRoutes(client: services.feeds, example: services.exampleFeed).add(to: router)
        RefsRoutes(git: services.git, policy: services.feeds.configuration.securityPolicy).add(to: router)
        return router
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
    ///   - handlingSignals: Whether SIGINT and SIGTERM stop the server gracefully.
    ///   - onListening: Called once the server accepts connections, with its base URL.
    /// - Throws: ``AppServerError/cannotListen(address:reason:)`` when the address cannot be
    ///   bound; otherwise what the server's service group throws (`ServiceGroupError`).
    public func run(
        host: String = "127.0.0.1",
        port: Int = 8090,
        handlingSignals: Bool = true,
        onListening: @escaping @Sendable (URL) async -> Void = { _ in }
    ) async throws {
        let wildcard = ["0.0.0.0", "::", "[::]"].contains(host)
        // One queue a run: its lookups end with the run.
        let ratings = RatingQueue(updater: .init(store: services.favorites, tmdb: services.tmdb), logger: logger)
        let app = Application(
            router: router(ratings: ratings, alsoAnsweringTo: wildcard ? nil : host),
            configuration: .init(address: .hostname(host, port: port), serverName: "courier"),
            onServerRunning: { channel in
                let boundPort = channel.localAddress?.port ?? port
                let shown = wildcard ? "127.0.0.1" : host
                let authority = shown.contains(":") ? "[\(shown)]" : shown
                if let url = URL(string: "http://\(authority):\(boundPort)") { await onListening(url) }
            },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(
            services: [app],
            gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [],
            cancellationSignals: handlingSignals ? [.sigquit] : [],
            logger: logger
        )
        // Event streams end at a graceful shutdown; a request still running after this long
        // is cancelled.
        configuration.maximumGracefulShutdownDuration = Self.shutdownGrace
        let services = ServiceGroup(configuration: configuration)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await ratings.run() }
                defer {
                    ratings.finish()
                    group.cancelAll()
                }
                try await services.run()
            }
        } catch let error as IOError {
            throw AppServerError.cannotListen(address: "\(host):\(port)", reason: error.description)
        } catch let error as SocketAddressError {
            throw AppServerError.cannotListen(address: "\(host):\(port)", reason: "\(error)")
        }
    }

    /// How long a graceful shutdown waits for the requests in flight.
    static let shutdownGrace: Duration = .seconds(5)
}

/// Why the app could not run.
public enum AppServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address could not be listened on.
    case cannotListen(address: String, reason: String)
    /// A file of the page is missing from the module's bundle.
    case missingResource(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "Cannot listen on \(address): \(reason)."
        case .missingResource(let name): "The app's \(name) is missing from its bundle; reinstall Courier."
        }
    }
}
