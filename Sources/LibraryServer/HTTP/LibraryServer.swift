public import Foundation
import HTTPTypes
public import Hummingbird
import LibraryKit
public import Logging
import NIOCore

/// The library service: `GET /locations?country=`, `GET /catalog?q=`, `/health`,
/// `/openapi.json` and a search page at `/`.
///
/// ```swift
/// let server = try LibraryServer(library: Library(try LibraryData.embedded()))
/// try await server.run(host: "127.0.0.1", port: 8080) { url in print("Serving \(url)") }
/// ```
public struct LibraryServer: Sendable {
    /// The paths the service answers, each with GET and HEAD.
    public static let paths: [String] = ["/", "/locations", "/catalog", "/health", "/openapi.json"]

    /// The data served.
    public let library: Library
    /// Where access logs (at `info`) and failures go.
    public var logger: Logger
    private let page: StaticFile
    private let openAPI: StaticFile
    private let health: ByteBuffer

    /// Prepares a server for `library`.
    ///
    /// - Throws: ``DataFileError`` if the page or the OpenAPI document is missing from the bundle.
    public init(library: Library, logger: Logger = Logger(label: "courier.library")) throws(DataFileError) {
        self.library = library
        self.logger = logger
        self.page = try StaticFile(
            named: "Web/index.html",
            contentType: "text/html; charset=utf-8",
            extraHeaders: [
                .contentSecurityPolicy:
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src https: data:; base-uri 'none'; form-action 'self'",
                .xContentTypeOptions: "nosniff",
            ]
        )
        self.openAPI = try StaticFile(named: "openapi.json", contentType: "application/json")
        let report = Health(status: "ok", locations: library.locations.count, books: library.catalog.count)
        var health: [UInt8] = []
        JSONObjectWriter.write(into: &health) { object in
            object.member("status", report.status)
            object.member("locations", report.locations)
            object.member("books", report.books)
        }
        self.health = ByteBuffer(bytes: health)
    }

    // MARK: - Routes

    /// The service's routes, for running in an `Application` or testing in process.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.middlewares.add(AccessLog())
        router.middlewares.add(ProblemMiddleware(paths: Set(Self.paths)))
        router.get("/") { [page] request, _ in page.response(to: request) }
        router.get("/locations") { [library] request, _ in
            try Self.search(library.locations, request: request, prefixName: "country")
        }
        router.get("/catalog") { [library] request, _ in
            try Self.search(library.catalog, request: request, prefixName: "q")
        }
        router.get("/health") { [health] _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: health)
            )
        }
        router.get("/openapi.json") { [openAPI] request, _ in openAPI.response(to: request) }
        return router
    }

    /// How long clients may reuse a search result before revalidating it with its entity tag.
    static let searchCacheControl = "public, max-age=60"

    /// One page of `list`'s matches as JSON, with `X-Total-Count`, `ETag` and `Cache-Control`;
    /// `304 Not Modified` when `If-None-Match` names the page's tag.
    static func search<Item>(
        _ list: SearchableList<Item>,
        request: Request,
        prefixName: String
    ) throws(Problem) -> Response {
        let query = try ListQuery.parse(request.uri.query, prefixName: prefixName)
        let result = list.search(query.prefix, limit: query.limit, offset: query.offset)
        let entityTag = EntityTag.forPage(result, of: list)
        var headers: HTTPFields = [
            .eTag: entityTag, .cacheControl: searchCacheControl, .totalCount: String(result.total),
        ]
        if EntityTag.request(request, alreadyHas: entityTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        let elements = list.jsonElements(for: result)
        var body = ByteBuffer()
        body.reserveCapacity(elements.count + 2)
        body.writeInteger(UInt8(ascii: "["))
        body.writeBytes(elements)
        body.writeInteger(UInt8(ascii: "]"))
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    // MARK: - Running

    /// Serves on `host`:`port` until the task is cancelled or, with `handlingSignals`, until
    /// SIGINT or SIGTERM, which stop it gracefully: it stops accepting connections and finishes
    /// the requests in flight.
    ///
    /// - Parameters:
    ///   - port: 0 picks a free port; `onListening` receives the address.
    ///   - limits: How long a connection may stay silent and how many may be open at once.
    ///   - certificate: Serve HTTPS with this certificate, offering HTTP/2 and HTTP/1.1 by ALPN;
    ///     `nil` serves cleartext HTTP/1.1.
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
        let scheme = certificate == nil ? "http" : "https"
        let app = Application(
            router: router(),
            server: try limits.server(certificate: certificate),
            configuration: limits.configuration(address: .hostname(host, port: port), serverName: "courier"),
            onServerRunning: { channel in
                let boundPort = channel.localAddress?.port ?? port
                let authority = host.contains(":") ? "[\(host)]" : host
                if let url = URL(string: "\(scheme)://\(authority):\(boundPort)") { await onListening(url) }
            },
            logger: logger
        )
        do {
            if handlingSignals {
                try await limits.run(app)
            } else {
                try await app.run()
            }
        } catch let error as IOError {
            throw LibraryServerError.cannotListen(address: "\(host):\(port)", reason: Self.explain(error))
        } catch let error as SocketAddressError {
            throw LibraryServerError.cannotListen(address: "\(host):\(port)", reason: "\(error)")
        }
    }

    private static func explain(_ error: IOError) -> String {
        switch error.errnoCode {
        case EADDRINUSE: "the port is in use: stop the other server or pass another --port"
        case EACCES: "permission denied: ports below 1024 need privileges; pass a --port above 1023"
        case EADDRNOTAVAIL: "the address is not one of this machine's: pass --host 127.0.0.1 or 0.0.0.0"
        default: error.description
        }
    }
}

/// Why the library service could not run.
public enum LibraryServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server could not listen on the address.
    case cannotListen(address: String, reason: String)

    /// "Cannot listen on 127.0.0.1:8080: the port is in use: …".
    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "Cannot listen on \(address): \(reason)."
        }
    }
}

extension HTTPField.Name {
    // Each literal is a valid field-name token, so the initializer cannot return nil.
    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
