public import Foundation
import LibrarySearch
import LibraryServer
public import Logging

/// The library service on the built-in data, served in this process on a free loopback port,
/// for the Libraries tab when no other service is given. The tab talks to it over HTTP like
/// to any other library service.
public enum EmbeddedLibrary {
    /// Runs `body` with the address of the built-in library service, which stops when `body`
    /// returns.
    ///
    /// - Throws: What `body` throws, or why the service could not start.
    public static func withService<Result: Sendable>(
        logger: Logger = Logger(label: "courier.app.library"),
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        let server = try LibraryServer(library: Library(try LibraryData.embedded()), logger: logger)
        let (addresses, announce) = AsyncStream.makeStream(of: URL.self)
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                defer { announce.finish() }
                try await server.run(host: "127.0.0.1", port: 0, handlingSignals: false) { url in announce.yield(url) }
                return nil
            }
            var waiting = addresses.makeAsyncIterator()
            guard let url = await waiting.next() else {
                // The service ended before listening: its error says why.
                while let _ = try await group.next() {}
                throw AppServerError.cannotListen(address: "127.0.0.1", reason: "the built-in library did not start")
            }
            defer { group.cancelAll() }
            return try await body(url)
        }
    }
}
