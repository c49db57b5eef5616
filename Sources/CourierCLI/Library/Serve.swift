import ArgumentParser
import CourierServerKit
import Foundation
import LibraryPostgres
import LibrarySearch
import LibraryServer
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `courier serve`: the library service and its search page.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the library service: search pages at /, JSON at /locations and /catalog.",
        discussion: """
            Serves the built-in data (libraries in more than 40 countries, classic books) or, with \
            --data, your own catalog.json and locations.json (books need only a title). With --tls-cert \
            and --tls-key it serves HTTPS, offering HTTP/2 and HTTP/1.1. Routes: / (search page), \
            /locations?country=, /catalog?q= (prefix search ignoring case and accents; limit, \
            offset; X-Total-Count), /health, /openapi.json. Access logs go to standard error. \
            Ctrl-C or SIGTERM stops it after the requests in flight.

            Examples:
              courier serve
              courier serve --port 9000 --data ./my-library      # edits are served once valid
              courier serve --host 0.0.0.0 --port 8443 --tls-cert server.pem --tls-key server.key
              PORT=3000 courier serve
              courier serve --host 0.0.0.0 --database postgres://courier@db.example/library
            """
    )

    @Option(
        name: .customLong("tls-cert"),
        help: "Serve HTTPS with this PEM certificate chain (the server's first); needs --tls-key. Offers HTTP/2."
    )
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @OptionGroup var server: ServerOptions

    @Option(
        help: """
            A directory with catalog.json and locations.json to serve instead of the built-in data; \
            edits are served as soon as they are valid (SIGHUP reads the files at once).
            """
    )
    var data: String?

    @Option(
        help: """
            With --data: look for changed files every this many seconds \
            (\(NumericOption.describe(Self.reloadIntervals))); 1 if not given.
            """,
        transform: NumericOption.seconds(in: Self.reloadIntervals)
    )
    var reloadInterval: Double?

    @Option(
        help: """
            Serve the catalog in this PostgreSQL database instead, shared with other replicas: \
            postgres://USER@HOST[:PORT]/DATABASE (load it with 'courier library import'). The password \
            may come from PGPASSWORD.
            """
    )
    var database: String?

    @Option(
        help:
            "Database connections of this replica (\(NumericOption.describe(Self.connectionCounts))); 12 if not given.",
        transform: NumericOption.integer(in: Self.connectionCounts)
    )
    var databaseConnections: Int?

    @Option(
        help: """
            Megabytes of answers this replica keeps until the data changes \
            (\(NumericOption.describe(Self.cacheSizes)); 0 asks the database every time; 64 if not given).
            """,
        transform: NumericOption.integer(in: Self.cacheSizes)
    )
    var cacheSize: Int?

    @Option(
        help: """
            Answer 503 when the database has not answered a search in this many seconds \
            (\(NumericOption.describe(Self.databaseTimeouts))); 3 if not given.
            """,
        transform: NumericOption.seconds(in: Self.databaseTimeouts)
    )
    var databaseTimeout: Double?

    static let databaseTimeouts: ClosedRange<Double> = 0.1...600
    static let reloadIntervals: ClosedRange<Double> = 0.05...3600
    static let connectionCounts = 1...200
    static let cacheSizes = 0...4096

    func validate() throws {
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("HTTPS needs both --tls-cert and --tls-key.")
        }
        _ = try listeningPort()
        if data != nil, database != nil {
            throw ValidationError(
                "Serve --data or --database, not both: 'courier library import' loads files into a database."
            )
        }
        if reloadInterval != nil, data == nil {
            throw ValidationError("--reload-interval applies to --data only: the built-in data does not change.")
        }
        if let database {
            _ = try DatabaseURLOption.parse(database)
        } else if databaseConnections != nil || cacheSize != nil || databaseTimeout != nil {
            throw ValidationError(
                "--database-connections, --database-timeout and --cache-size apply to --database only."
            )
        }
    }

    /// `--port`, else `$PORT` (as the chapter's service reads it), else 8080.
    func listeningPort(environment: [String: String] = CommandContext.environment) throws -> Int {
        if let port = server.port { return port }
        guard let text = environment["PORT"], !text.isEmpty else { return 8080 }
        guard let value = Int(text), NumericOption.ports.contains(value) else {
            throw ValidationError(
                "PORT '\(text)' in the environment is not a port (\(NumericOption.describe(NumericOption.ports))): "
                    + "fix it, unset it, or pass --port."
            )
        }
        return value
    }

    func run() async throws {
        // SIGHUP (`systemctl reload`) is ignored until the handler below is installed and after
        // it is gone: reading and indexing the data takes a moment, and its default action
        // would end the server.
        if server.handlesSignals { signal(SIGHUP, SIG_IGN) }
        let logger = server.logger(label: "courier.serve", default: .info)
        let (store, summary) = try makeStore(logger: logger)
        let libraryServer: LibraryServer
        do {
            libraryServer = try LibraryServer(store: store, logger: logger)
        } catch {
            throw CommandFailure("\(error)", status: .unexpected)
        }
        let certificate: ServerCertificate?
        do {
            certificate = try tlsCertificate.map { file throws(ServerCertificateError) in
                try ServerCertificate(certificateFile: file, privateKeyFile: tlsKey ?? "")
            }
        } catch {
            throw CommandFailure("\(error).", status: .usage)
        }
        let banner = ServeBanner(host: server.host, certificate: certificate, certificateFile: tlsCertificate)
        let port = try listeningPort()
        do {
            try await withThrowingDiscardingTaskGroup { group in
                // SIGHUP reads the data files at once, while the server runs. Without files it
                // changes nothing, but is still caught: `systemctl reload` sends it, and its
                // default action would stop the service.
                if server.handlesSignals {
                    let files = store as? ReloadingLibrary
                    group.addTask {
                        await ReloadSignal.handle {
                            guard let files else {
                                logger.notice("SIGHUP: nothing to reload, only files given with --data are read again")
                                return
                            }
                            await files.reloaded(force: true)
                        }
                    }
                }
                try await libraryServer.run(
                    host: server.host,
                    port: port,
                    limits: server.limits,
                    certificate: certificate,
                    handlingSignals: server.handlesSignals
                ) { url in
                    Terminal.output(banner.text(listeningOn: url, summary: summary))
                }
                group.cancelAll()
            }
        } catch .cannotListen(let address, let failure) as LibraryServerError {
            throw CommandFailure(cannotListenOn: address, failure)
        } catch let error as LibraryDatabaseError {
            throw DatabaseURLOption.failure(error)
        }
        Terminal.output("Stopped.")
    }

    /// The data to serve and a summary of it for the banner: a database, your files, or the
    /// built-in data.
    private func makeStore(logger: Logger) throws -> (any LibraryStore, String) {
        if let database {
            let url = try DatabaseURLOption.parse(database)
            let configuration = PostgresLibrary.Configuration(
                maximumConnections: databaseConnections ?? 12,
                cacheSize: (cacheSize ?? 64) << 20,
                queryTimeout: NumericOption.duration(seconds: databaseTimeout ?? 3)
            )
            return (PostgresLibrary(url: url, configuration: configuration, logger: logger), "the catalog in \(url)")
        }
        let library: Library
        let store: any LibraryStore
        do {
            if let data {
                let files = try ReloadingLibrary(
                    directory: URL(fileURLWithPath: data, isDirectory: true),
                    pollInterval: NumericOption.duration(seconds: reloadInterval ?? 1),
                    logger: logger
                )
                (library, store) = (files.library, files)
            } else {
                library = Library(try LibraryData.embedded())
                store = library
            }
        } catch {
            throw CommandFailure(
                "\(error)\nFix the file, or start without --data to serve the built-in data.",
                status: .usage
            )
        }
        return (
            store,
            "\(library.locations.count) libraries in \(library.countryCount) countries, \(library.catalog.count) books"
        )
    }
}
