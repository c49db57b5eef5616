import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryKit
import LibraryPostgres
import LibrarySearch
import LibraryServer
import Logging
import Testing

/// A `LibraryServer` and a client for it: its routes in this process (``withService(_:mode:_:)``,
/// through `RouterTransport`), or the whole server on a free port of 127.0.0.1 for a browser
/// (``withListeningService(_:)``).
enum LibraryServiceFixture {
    static let locations = [
        Location(streetAddress: "1 Rue Cler", city: "Paris", country: "France", emoji: "🇫🇷", hours: "9am–6pm"),
        Location(streetAddress: "Plateau", city: "Abidjan", country: "Côte d'Ivoire", emoji: "🇨🇮", hours: "8am–5pm"),
        Location(streetAddress: "Avenida 2", city: "San José", country: "Costa Rica", emoji: "🇨🇷", hours: "8am–4pm"),
        Location(streetAddress: "2 Quai", city: "Lyon", country: "France", emoji: "🇫🇷", hours: "10am–7pm"),
        Location(streetAddress: "Handelskade", city: "Willemstad", country: "Curaçao", emoji: "🇨🇼", hours: "9am–5pm"),
        Location(
            streetAddress: "96 Euston Road",
            city: "London",
            country: "United Kingdom",
            emoji: "🇬🇧",
            hours: "9:30am–8pm"
        ),
    ]

    static let books =
        (1...250).map { Book(title: "Volume \($0)", author: "Serial", year: 1900 + $0 % 100) } + [
            Book(title: "Étranger au paradis", author: "A. Auteur", year: 1950),
            Book(title: "Etruscan Places", author: "D. H. Lawrence", year: 1932),
            Book(title: "L'Étranger", author: "Albert Camus", year: 1942),
            Book(title: "Straße der Ölsardinen", author: "John Steinbeck", year: 1945),
        ]

    static var data: LibraryData { LibraryData(locations: locations, books: books) }

    /// Where a test's service keeps its data.
    enum StoreMode: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// `Library`, in the test's process.
        case memory
        /// `PostgresLibrary`, on a PostgreSQL server the test starts.
        case postgresql

        var testDescription: String { rawValue }
    }

    /// Every mode this machine can run: PostgreSQL's only where it is installed.
    static let modes: [StoreMode] = PostgresTestServer.isAvailable ? [.memory, .postgresql] : [.memory]

    static let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` with a client for the service's routes on `data` kept the `mode` way, and the
    /// base URL the client's requests name; stops the store (and its database) after.
    static func withService<Result: Sendable>(
        _ data: LibraryData = data,
        mode: StoreMode = .memory,
        _ body: @Sendable (HTTPClient, URL) async throws -> Result
    ) async throws -> Result {
        switch mode {
        case .memory:
            return try await withService(store: Library(data), body)
        case .postgresql:
            return try await PostgresTestServer.withSharedServer { server in
                let url = try DatabaseURL(try await server.createDatabase())
                _ = try await LibraryDatabase.withDatabase(url: url, logger: quietLogger, connectTimeout: .seconds(60))
                {
                    database in
                    try await database.importData(data)
                }
                // A loaded machine's margin: no test waits for it, each search ends at its answer.
                let store = PostgresLibrary(
                    url: url,
                    configuration: .init(maximumConnections: 4, queryTimeout: .seconds(60)),
                    logger: quietLogger
                )
                return try await withService(store: store, body)
            }
        }
    }

    /// Runs `store` and `body` with a client for the service's routes over `store`, in this
    /// process, then stops the store.
    static func withService<Result: Sendable>(
        store: some LibraryStore,
        _ body: @Sendable (HTTPClient, URL) async throws -> Result
    ) async throws -> Result {
        let server = try LibraryServer(store: store, logger: quietLogger)
        let app = Application(router: server.router(), logger: quietLogger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.run() }
            defer { group.cancelAll() }
            return try await app.test(.router) { client in
                let url = RouterTransport.origin
                // A margin for a loaded machine: no test waits for it, each request ends at its answer.
                let http = HTTPClient(
                    transport: RouterTransport(client),
                    configuration: .library(service: url, timeout: .seconds(60))
                )
                return try await body(http, url)
            }
        }
    }

    /// Serves the in-memory library on `data` on a free port, runs `body` with a client for it
    /// and the server's URL, and stops the server: for a browser, which needs a socket.
    static func withListeningService<Result: Sendable>(
        _ data: LibraryData = data,
        _ body: @Sendable (HTTPClient, URL) async throws -> Result
    ) async throws -> Result {
        let server = try LibraryServer(store: Library(data), logger: quietLogger)
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }  // a server that cannot start must not leave the test waiting
                try await server.run(host: "127.0.0.1", port: 0, handlingSignals: false) { url in
                    continuation.yield(url)
                    continuation.finish()
                }
            }
            defer { group.cancelAll() }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next() else { throw CancellationError() }
            return try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                // A margin for a loaded machine: no test waits for it, each request ends at its answer.
                try await body(
                    HTTPClient(transport: transport, configuration: .library(service: url, timeout: .seconds(60))),
                    url
                )
            }
        }
    }
}
