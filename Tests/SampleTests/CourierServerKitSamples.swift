import CourierServerKit
import Foundation
import Hummingbird
import LibrarySearch
import Logging

/// The samples of the `CourierServerKit` module, each in the context it takes for granted.
/// Nothing calls them: the build compiles them.
enum CourierServerKitSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - ConnectionLimits+Serve.swift

    static func serve() async throws {
        let router = Router()
        router.get("/") { _, _ in "Hello" }
        try await ConnectionLimits.default.serve(router.buildResponder(), host: "127.0.0.1", port: 8080) { url in
            print("Serving \(url)")
        }
    }

    // MARK: - ListenFailure.swift

    static func listenFailure(
        limits: ConnectionLimits,
        responder: RouterResponder<BasicRequestContext>,
        logger: Logger
    ) async throws {
        do {
            try await limits.serve(responder, host: "127.0.0.1", port: 8080, logger: logger)
        } catch let error as ListenError where error.reason == .portInUse {
            try await limits.serve(responder, host: "127.0.0.1", port: 8081, logger: logger)
        }
    }

    // MARK: - AccessLog.swift, HostGuard.swift, HTTPProblem.swift, StaticFile.swift

    // swift-format-ignore
    static func middleware(router: Router<BasicRequestContext>) {
        router.middlewares.add(AccessLog(target: .pathOnly))
        router.middlewares.add(HostGuard(listeningOn: "127.0.0.1"))
        router.get("/books/:id") { _, context -> String in
            throw HTTPProblem(.notFound, detail: "No book \(context.parameters.get("id") ?? "").")
        }
        let page = StaticFile(bytes: Array("<!doctype html><title>Hi</title>".utf8), contentType: "text/html; charset=utf-8")
        router.get("/") { request, _ in page.response(to: request) }
    }

    // MARK: - ServerCertificate.swift

    // swift-format-ignore
    static func serverCertificate(
        limits: ConnectionLimits,
        responder: RouterResponder<BasicRequestContext>,
        logger: Logger
    ) async throws {
        let certificate = try ServerCertificate(certificateFile: "server.pem", privateKeyFile: "server.key")
        try await limits.serve(responder, host: "0.0.0.0", port: 8443, certificate: certificate, logger: logger)
    }

    // MARK: - ConnectionLimits.swift

    // swift-format-ignore
    static func connectionLimits(router: Router<BasicRequestContext>, address: BindAddress) {
        let limits = ConnectionLimits(idleTimeout: .seconds(30), requestTimeout: .seconds(60), maximumConnections: 1024)
        let app = Application(router: router, server: limits.server, configuration: limits.configuration(address: address))
        keep(app)
    }

    // MARK: - ResponseCompression.swift

    static func responseCompression() {
        let router = Router()
        router.middlewares.add(ResponseCompression())
        keep(router)
    }

    // MARK: - ReloadSignal.swift

    static func reloadSignal(library: ReloadingLibrary) async {
        await ReloadSignal.handle { library.reload(force: true) }  // until the task is cancelled
    }
}
