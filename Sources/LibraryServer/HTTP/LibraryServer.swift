public import CourierServerKit
public import Foundation
import HTTPTypes
public import Hummingbird
import LibraryKit
public import LibrarySearch
public import Logging
import NIOCore
import ServiceLifecycle

/// The library service: `GET /locations?country=`, `GET /catalog?q=`, `/health`,
/// `/openapi.json` and a search page at `/`.
///
/// ```swift
/// let server = try LibraryServer(library: Library(try LibraryData.embedded()))
/// try await server.run(host: "127.0.0.1", port: 8080) { url in print("Serving \(url)") }
/// ```
///
/// The data comes from a `LibraryStore`: the in-memory `Library`, or a database shared by
/// replicas, with the same answers.
public struct LibraryServer: Sendable {
    /// The paths the service answers, each with GET and HEAD.
    public static let paths: [String] = ["/", "/locations", "/catalog", "/health", "/openapi.json"]

    /// Where the data comes from.
    public let store: any LibraryStore
    /// Where access logs (at `info`) and failures go.
    public var logger: Logger
    private let page: StaticFile
    private let openAPI: StaticFile

    /// What the page may load: its own inline script and style, the service's JSON, covers.
    static let pagePolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
        + "img-src https: data:; base-uri 'none'; form-action 'self'"

    /// Prepares a server for the in-memory `library`.
    ///
    /// - Throws: `DataFileError` if the page or the OpenAPI document is not built in.
    public init(library: Library, logger: Logger = Logger(label: "courier.library")) throws(DataFileError) {
        try self.init(store: library, logger: logger)
    }

    /// Prepares a server for the data in `store`.
    ///
    /// - Throws: `DataFileError` if the page or the OpenAPI document is not built in.
    public init(store: any LibraryStore, logger: Logger = Logger(label: "courier.library")) throws(DataFileError) {
        self.store = store
        self.logger = logger
        self.page = StaticFile(
            bytes: try Self.resource("Web/index.html"),
            contentType: "text/html; charset=utf-8",
            extraHeaders: [.contentSecurityPolicy: Self.pagePolicy]
        )
        self.openAPI = StaticFile(bytes: try Self.resource("openapi.json"), contentType: "application/json")
    }

    /// The bytes of `Resources/<name>`, built into the module.
    private static func resource(_ name: String) throws(DataFileError) -> [UInt8] {
        guard let bytes = EmbeddedResources.bytes(name) else {
            throw DataFileError(file: name, problem: "is not among LibraryServer's built-in resources")
        }
        return bytes
    }

    // MARK: - Routes

    /// The service's routes, for running in an `Application` or testing in process.
    public func router() -> Router<BasicRequestContext> {
        router(for: store, https: false)
    }

    /// The routes, with the store's concrete type known to every handler; served over HTTPS,
    /// every answer carries `Strict-Transport-Security`.
    private func router<Store: LibraryStore>(for store: Store, https: Bool) -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        if https { router.middlewares.add(StrictTransportSecurity()) }
        router.middlewares.add(AccessLog())
        router.middlewares.add(ResponseCompression())
        router.middlewares.add(ProblemMiddleware<BasicRequestContext>(paths: Set(Self.paths)))
        router.get("/") { [page] request, _ in page.response(to: request) }
        router.get("/locations") { request, context in
            try await Self.search(store, .locations, request: request, prefixName: "country", logger: context.logger)
        }
        router.get("/catalog") { request, context in
            try await Self.search(store, .catalog, request: request, prefixName: "q", logger: context.logger)
        }
        router.get("/health") { _, _ in await Self.health(of: store) }
        router.get("/openapi.json") { [openAPI] request, _ in openAPI.response(to: request) }
        return router
    }

    /// How long clients may reuse a search result before revalidating it with its entity tag.
    static let searchCacheControl = "public, max-age=60"

    /// One page of `list`'s matches as JSON, with `X-Total-Count`, `ETag` and `Cache-Control`;
    /// `304 Not Modified` when `If-None-Match` names the page's tag.
    static func search(
        _ store: some LibraryStore,
        _ list: LibraryList,
        request: Request,
        prefixName: String,
        logger: Logger
    ) async throws(HTTPProblem) -> Response {
        let query = try ListQuery.parse(request.uri.query, prefixName: prefixName)
        let page: LibraryPage
        do {
            page = try await store.search(list, prefix: query.prefix, limit: query.limit, offset: query.offset)
        } catch {
            logger.warning("\(request.uri.path) answered 503: \(error.reason)")
            throw HTTPProblem.unavailable(error)
        }
        var headers: HTTPFields = [
            .eTag: page.entityTag, .cacheControl: searchCacheControl, .totalCount: String(page.total),
        ]
        if EntityTag.request(request, alreadyHas: page.entityTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        var body = ByteBuffer()
        body.reserveCapacity(page.elements.count + 2)
        body.writeInteger(UInt8(ascii: "["))
        body.writeBytes(page.elements)
        body.writeInteger(UInt8(ascii: "]"))
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// `/health`: 200 while searches can be answered, 503 while the database cannot be reached.
    static func health(of store: some LibraryStore) async -> Response {
        let report = await store.health()
        let reachable = report.isReachable ?? true
        var bytes: [UInt8] = []
        JSONObjectWriter.write(into: &bytes) { object in
            object.member("status", reachable ? "ok" : "unavailable")
            object.member("mode", store.mode)
            if let isReachable = report.isReachable {
                object.member("database", isReachable ? "reachable" : "unreachable")
            }
            if let locations = report.locations { object.member("locations", locations) }
            if let books = report.books { object.member("books", books) }
            if let version = report.version { object.member("version", Int(clamping: version)) }
        }
        return Response(
            status: reachable ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    // MARK: - Running

    /// Serves on `host`:`port` until the task is cancelled or, with `handlingSignals`, until
    /// SIGINT or SIGTERM, which stop it gracefully: it stops accepting connections and finishes
    /// the requests in flight.
    ///
    /// - Parameters:
    ///   - host: The address to listen on (`127.0.0.1` for this machine only).
    ///   - port: 0 picks a free port; `onListening` receives the address.
    ///   - limits: How long a connection may stay silent and how many may be open at once.
    ///   - certificate: Serve HTTPS with this certificate, offering HTTP/2 and HTTP/1.1 by ALPN;
    ///     `nil` serves cleartext HTTP/1.1.
    ///   - handlingSignals: Whether SIGINT and SIGTERM stop the server gracefully.
    ///   - onListening: Called once the server accepts connections, with its base URL.
    /// - Throws: ``LibraryServerError/cannotListen(address:reason:)`` when the address cannot be
    ///   bound (in use, not permitted, not this machine's).
    public func run(
        host: String,
        port: Int,
        limits: ConnectionLimits = .default,
        certificate: ServerCertificate? = nil,
        handlingSignals: Bool = true,
        onListening: @escaping @Sendable (URL) async -> Void = { _ in }
    ) async throws {
        do {
            try await limits.serve(
                router(for: store, https: certificate != nil).buildResponder(),
                host: host,
                port: port,
                certificate: certificate,
                logger: logger,
                after: [StoreService(store: store)],
                handlingSignals: handlingSignals,
                onListening: onListening
            )
        } catch let error as ListenError {
            throw LibraryServerError.cannotListen(address: error.address, reason: error.reason)
        }
    }
}

/// A store's `run()` as a service that stops when the service group shuts down: after the
/// server, which is started after it and so stopped before it.
private struct StoreService: Service, CustomStringConvertible {
    let store: any LibraryStore

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await store.run() }
        // A store with nothing to run returns at once; a service group takes a service that
        // returns before it is asked to stop for a failure.
        try? await gracefulShutdown()
    }

    var description: String { "the library's \(store.mode) store" }
}

/// Why the library service could not run.
public enum LibraryServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server could not listen on the address.
    case cannotListen(address: String, reason: ListenFailure)

    /// "Cannot listen on 127.0.0.1:8080: the port is in use: stop the other server or choose
    /// another port."
    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "Cannot listen on \(address): \(reason)."
        }
    }
}

/// `Strict-Transport-Security` on every answer of a server reached over HTTPS: browsers keep to
/// HTTPS for the host for two years (Mozilla's recommendation).
private struct StrictTransportSecurity<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.strictTransportSecurity] = "max-age=63072000"
        return response
    }
}
