import Courier
public import CourierCassettes
public import CourierServerKit
public import Foundation
import HTTPTypes
public import Hummingbird
public import Logging
import NIOCore

/// Recorded responses served on this machine, so that a program can run against them
/// offline: `courier replay`.
///
/// ```swift
/// let cassette = try Cassette.load(from: URL(fileURLWithPath: "movies.json"))
/// let server = ReplayServer(cassette, host: "127.0.0.1")
/// try await server.run(port: 9000) { url in print("Replaying on \(url)") }
/// ```
///
/// A request gets the recorded response of the same method, path, query and body, whatever
/// host it was recorded from; repeated requests replay in recorded order. A request with no
/// recording gets a 404 problem naming it and what the cassette holds.
///
/// The recording works on any host and port: every origin its requests were recorded against
/// (`RecordedOrigins`) is replaced by the replay's own, as the request names it, in the
/// recorded header values and text bodies — so the artwork a recorded search links to is asked
/// of the replay too. A `GET` or `HEAD` whose `If-None-Match` names the recorded `ETag` (or,
/// without one, whose `If-Modified-Since` is no earlier than the recorded `Last-Modified`) gets
/// `304 Not Modified`, so a cache's revalidation can be shown offline.
///
/// Only requests addressed to this machine are answered (`HostGuard`: a web page cannot
/// point a name of its own at 127.0.0.1 and read the recordings), and none that another site's
/// page makes (an `Origin` not the server's own, or `Sec-Fetch-Site` other than `same-origin`
/// or `none`: 403). Recorded `Access-Control-*` fields are never sent, so no page on another
/// origin can read a recording.
public struct ReplayServer: Sendable {
    /// What is replayed.
    public let player: CassettePlayer
    /// The origins replaced by the replay's own in what it sends.
    public let origins: RecordedOrigins
    /// The address listened on.
    public let host: String
    /// Where the access log (at `info`) goes; nothing is logged by default.
    public var logger: Logger
    private let hosts: HostGuard<BasicRequestContext>

    /// A server replaying `cassette` on `host`.
    public init(
        _ cassette: Cassette,
        host: String = "127.0.0.1",
        logger: Logger = Logger(label: "courier.replay") { _ in SwiftLogNoOpLogHandler() }
    ) {
        self.player = CassettePlayer(cassette)
        self.origins = RecordedOrigins(cassette)
        self.host = host
        self.logger = logger
        self.hosts = HostGuard(listeningOn: host)
    }

    /// Serves until SIGINT or SIGTERM (with `handlingSignals`) or until the task is cancelled;
    /// `onListening` gets the URL to reach it by (on 127.0.0.1 for a wildcard address, which is
    /// no name the server answers to).
    ///
    /// - Throws: `ListenError` (from `CourierServerKit`) when the address cannot be listened on.
    public func run(
        port: Int,
        limits: ConnectionLimits = .default,
        handlingSignals: Bool = true,
        onListening: @escaping @Sendable (URL) async -> Void = { _ in }
    ) async throws {
        let router = Router()
        router.middlewares.add(AccessLog(target: .pathOnly))
        router.middlewares.add(ReplayResponder(server: self))
        try await limits.serve(
            router.buildResponder(),
            host: host,
            port: port,
            serverName: nil,  // the recorded fields only: no `Server` of its own
            logger: logger,
            handlingSignals: handlingSignals,
            onListening: { [host] url in await onListening(ListeningAddress.reachableURL(url, listeningOn: host)) }
        )
    }

    /// The largest request body read to find its recording.
    static let maximumBodySize = 64 << 20

    /// Header fields the server sets itself for the body it sends.
    private static let framing: Set<HTTPField.Name> = [.contentLength, .transferEncoding, .connection]

    /// The recorded answer to `request`, or the problem that refuses it.
    public func respond(to request: Request) async throws -> Response {
        guard let authority = hosts.authority(of: request) else {
            return HostGuard<BasicRequestContext>.misdirected.response
        }
        // A page of another site may send requests here, but it gets nothing to read: no
        // recorded Access-Control-* field is sent, and a request it makes is refused.
        if let origin = request.headers[.origin], !Self.isOwn(origin: origin, host: authority) {
            return HTTPProblem(.forbidden, detail: "This replay answers no other site's pages (Origin: \(origin)).")
                .response
        }
        if let site = request.headers[.secFetchSite], site != "same-origin", site != "none" {
            return HTTPProblem(.forbidden, detail: "This replay answers no other site's pages (\(site) request).")
                .response
        }
        let body: Data
        do {
            body = Data((try await request.body.collect(upTo: Self.maximumBodySize)).readableBytesView)
        } catch {
            return HTTPProblem(
                .contentTooLarge,
                detail: "The request body is larger than \(Self.maximumBodySize >> 20) MiB, the most a replay compares."
            ).response
        }
        // Secrets in the request are redacted as in the recordings, and never echoed.
        let target = Redaction.redactingURL(request.uri.description)
        guard
            let recorded = player.response(
                method: request.method.rawValue,
                target: target,
                body: body,
                contentType: request.headers[.contentType]
            )
        else {
            return HTTPProblem(
                .notFound,
                detail:
                    "No recording of \(request.method) \(target) (the cassettes hold \(player.summary))."
            ).response
        }
        let replayed = origins.rewriting(recorded, to: "http://\(authority)")
        let headers = replayed.headerFields.filter {
            !Self.framing.contains($0.name) && !$0.name.canonicalName.hasPrefix("access-control-")
        }
        if Self.isNotModified(request, recorded: replayed) {
            return Response(status: .notModified, headers: headers.filter { Self.notModifiedFields.contains($0.name) })
        }
        return Response(
            status: HTTPResponse.Status(code: replayed.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: replayed.body?.data ?? Data()))
        )
    }

    /// What a `304` carries of the response it stands for (RFC 9110 §15.4.5).
    private static let notModifiedFields: Set<HTTPField.Name> = [
        .cacheControl, .contentLocation, .date, .eTag, .expires, .vary, .lastModified,
    ]

    /// Whether `request` is a `GET` or `HEAD` for a `200` it already has, by the recorded
    /// validators: `If-None-Match` against `ETag`, else `If-Modified-Since` against
    /// `Last-Modified` (RFC 9110 §13.2.2).
    private static func isNotModified(_ request: Request, recorded: Cassette.Response) -> Bool {
        guard request.method == .get || request.method == .head, recorded.status == 200 else { return false }
        let fields = recorded.headerFields
        let tags = request.headers[values: .ifNoneMatch]
        if !tags.isEmpty {
            let condition = tags.joined(separator: ", ")
            // `*` matches any current representation, tagged or not (RFC 9110 §13.1.2).
            if EntityTag.ifNoneMatch(condition, matches: "") { return true }
            guard let tag = fields[.eTag] else { return false }
            let opaque = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            return EntityTag.ifNoneMatch(condition, matches: opaque)
        }
        // One date, or the field is ignored (RFC 9110 §13.1.3).
        let dates = request.headers[values: .ifModifiedSince]
        guard dates.count == 1, let condition = HTTPDate.parse(dates[0]),
            let modified = fields[.lastModified].flatMap(HTTPDate.parse)
        else { return false }
        return modified <= condition
    }

    /// Whether `origin` (`http://host[:port]`) is this server's as the request names it, the
    /// port 80 written or not.
    private static func isOwn(origin: String, host: HTTPAuthority) -> Bool {
        guard origin.hasPrefix("http://"), let named = HTTPAuthority(parsing: origin.dropFirst(7)) else { return false }
        return named.host == host.host && (named.port ?? 80) == (host.port ?? 80)
    }
}

/// Answers every request, whatever its method and path, from the recordings.
private struct ReplayResponder: RouterMiddleware {
    let server: ReplayServer

    func handle(
        _ request: Request,
        context: BasicRequestContext,
        next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        try await server.respond(to: request)
    }
}
