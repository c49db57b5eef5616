// The sample of LibraryServer.docc/ServingManyReplicas.md, whose imports must open a file.

import CourierServerKit
import Foundation
import LibraryPostgres
import LibrarySearch
import LibraryServer
import Logging

func serveReplica(data directory: URL, logger: Logger) async throws {
    let url = try DatabaseURL("postgres://courier@db.example/library")
    let imported = try await LibraryDatabase.withDatabase(url: url, logger: logger) { database in
        try await database.importData(try LibraryData.load(from: directory))
    }
    logger.info("imported \(imported.books) books")

    let certificate = try ServerCertificate(certificateFile: "server.pem", privateKeyFile: "server.key")
    let server = try LibraryServer(store: PostgresLibrary(url: url, logger: logger), logger: logger)
    try await server.run(host: "0.0.0.0", port: 8443, certificate: certificate)
}
