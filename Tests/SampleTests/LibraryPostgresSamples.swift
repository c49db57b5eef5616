import Foundation
import LibraryKit
import LibraryPostgres
import LibrarySearch
import LibraryServer
import Logging

/// The samples of the `LibraryPostgres` module (its `///` examples and its DocC articles), each
/// in the context it takes for granted. Nothing calls them: the build compiles them.
enum LibraryPostgresSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - DatabaseURL.swift

    static func databaseURL() throws {
        let url = try DatabaseURL("postgres://courier@db.example:5432/library?sslmode=require")
        keep(url)
    }

    // MARK: - LibraryPostgres.docc/ChangingTheData.md, LibraryDatabase.swift

    static func changingTheData(url: DatabaseURL, logger: Logger, directory: URL) async throws {
        try await LibraryDatabase.withDatabase(url: url, logger: logger) { database in
            try await database.importData(try LibraryData.load(from: directory))
            try await database.addBook(Book(title: "Beowulf"))
        }
    }

    // MARK: - LibraryPostgres.docc/LibraryPostgres.md, PostgresLibrary.swift

    static func postgresLibrary(logger: Logger) async throws {
        let library = PostgresLibrary(url: try DatabaseURL("postgres://courier@127.0.0.1/library"), logger: logger)
        let server = try LibraryServer(store: library, logger: logger)
        try await server.run(host: "0.0.0.0", port: 8080)  // runs the library's pool and listener too
    }
}
