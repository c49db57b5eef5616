import ArgumentParser
import Foundation
import LibraryServer
import Logging

/// `courier serve`: the library service and its search page.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the library service: search pages at /, JSON at /locations and /catalog.",
        discussion: """
            Serves the built-in data (libraries in more than 40 countries, classic books) or, with \
            --data, your own catalog.json and locations.json. Routes: / (search page), \
            /locations?country=, /catalog?q= (prefix search ignoring case and accents; limit, \
            offset; X-Total-Count), /health, /openapi.json. Access logs go to standard error. \
            Ctrl-C or SIGTERM stops it after the requests in flight.

            Examples:
              courier serve
              courier serve --port 9000 --data ./my-library
            """
    )

    @Option(help: "The address to listen on: 127.0.0.1 for this machine only, 0.0.0.0 for every interface.")
    var host = "127.0.0.1"

    @Option(
        help: "The port to listen on (\(NumericOption.describe(NumericOption.ports))); 0 picks a free one.",
        transform: NumericOption.integer(in: NumericOption.ports)
    )
    var port = 8080

    @OptionGroup var server: ServerOptions

    @Option(help: "A directory with catalog.json and locations.json to serve instead of the built-in data.")
    var data: String?

    @Option(
        help: "The lowest level logged to standard error: trace, debug, info (access logs), notice, warning, error."
    )
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--log-level '\(logLevel)' is not one of \(levels).")
        }
    }

    func run() async throws {
        let libraryData: LibraryData
        do {
            libraryData =
                if let data {
                    try LibraryData.load(from: URL(fileURLWithPath: data, isDirectory: true))
                } else {
                    try LibraryData.embedded()
                }
        } catch {
            throw CommandFailure(
                "\(error)\nFix the file, or start without --data to serve the built-in data.",
                status: .usage
            )
        }
        let library = Library(libraryData)
        let logger = Terminal.logger(label: "courier.serve", level: Logger.Level(rawValue: logLevel) ?? .info)
        let libraryServer: LibraryServer
        do {
            libraryServer = try LibraryServer(library: library, logger: logger)
        } catch {
            throw CommandFailure("\(error)", status: .unexpected)
        }
        let summary =
            "\(library.locations.count) libraries in \(library.countryCount) countries, \(library.catalog.count) books"
        do {
            try await libraryServer.run(host: host, port: port, limits: server.limits) { url in
                Terminal.output(
                    """
                    Serving the library on \(url) (\(summary)).
                    Open \(url)/ in a browser, or run: courier locations France --service \(url)
                    Ctrl-C stops it.
                    """
                )
            }
        } catch let error as LibraryServerError {
            throw CommandFailure(error.description, status: .network)
        }
        Terminal.output("Stopped.")
    }
}
