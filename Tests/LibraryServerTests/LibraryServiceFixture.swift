import Courier
import CourierAsyncHTTPClient
import Foundation
import LibraryKit
import LibraryServer
import Logging

/// A real `LibraryServer` on a free port of 127.0.0.1, and a `LibraryClient` for it.
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

    /// Starts the service, runs `body` with a client for it, and stops the service.
    static func withService<Result: Sendable>(
        _ data: LibraryData = data,
        _ body: @Sendable (LibraryClient, URL) async throws -> Result
    ) async throws -> Result {
        let server = try LibraryServer(
            library: Library(data),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run(host: "127.0.0.1", port: 0, handlingSignals: false) { url in
                    continuation.yield(url)
                    continuation.finish()
                }
            }
            defer { group.cancelAll() }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next() else { throw CancellationError() }
            return try await AsyncHTTPClientTransport.withTransport { transport in
                // A margin for a loaded machine: no test waits for it, each request ends at its answer.
                try await body(LibraryClient(service: url, transport: transport, timeout: .seconds(60)), url)
            }
        }
    }
}
