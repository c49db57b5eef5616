import Foundation
import Hummingbird
import LibraryKit
import LibrarySearch
import LibraryServer

/// The samples of the `LibraryServer` module (its `///` examples and its DocC articles), each in
/// the context it takes for granted. Nothing calls them: the build compiles them.
enum LibraryServerSamples {
    /// Gathers the values of samples that are bare expressions, so that none is unused.
    @resultBuilder
    enum Values {
        static func buildExpression<Value>(_ value: Value) -> [Any] { [value] }
        static func buildBlock(_ components: [Any]...) -> [Any] { components.flatMap { $0 } }
    }

    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - LibraryServer.docc/LibraryServer.md

    static func overview() async throws {
        let data = try LibraryData.load(from: URL(fileURLWithPath: "my-library"))  // or .embedded()
        let server = try LibraryServer(library: Library(data))
        try await server.run(host: "127.0.0.1", port: 8080) { url in print("Serving \(url)") }
    }

    // MARK: - HTTP/LibraryServer.swift

    static func libraryServer() async throws {
        let server = try LibraryServer(library: Library(try LibraryData.embedded()))
        try await server.run(host: "127.0.0.1", port: 8080) { url in print("Serving \(url)") }
    }

    // MARK: - HTTP/ListenFailure.swift

    static func listenFailure(server: LibraryServer) async throws {
        do {
            try await server.run(host: "127.0.0.1", port: 8080)
        } catch LibraryServerError.cannotListen(_, .portInUse) {
            try await server.run(host: "127.0.0.1", port: 8081)
        }
    }

    // MARK: - HTTP/ServerCertificate.swift

    static func serverCertificate(server: LibraryServer) async throws {
        let certificate = try ServerCertificate(certificateFile: "server.pem", privateKeyFile: "server.key")
        try await server.run(host: "0.0.0.0", port: 8443, certificate: certificate)
    }

    // MARK: - HTTP/ConnectionLimits.swift

    // swift-format-ignore
    static func connectionLimits(router: Router<BasicRequestContext>, address: BindAddress) {
        let limits = ConnectionLimits(idleTimeout: .seconds(30), requestTimeout: .seconds(60), maximumConnections: 1024)
        let app = Application(router: router, server: limits.server, configuration: limits.configuration(address: address))
        keep(app)
    }

    // MARK: - HTTP/ResponseCompression.swift

    static func responseCompression() {
        let router = Router()
        router.middlewares.add(ResponseCompression())
        keep(router)
    }
}
