import ArgumentParser
import Courier
import CourierCassettes
import Foundation
import HTTPTypes
import Hummingbird
import LibraryServer
import Logging
import NIOCore

/// `courier replay CASSETTE…`: recorded responses served on 127.0.0.1, so a program can run
/// against them offline.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the responses recorded in cassettes (courier get --record) on 127.0.0.1.",
        discussion: """
            A request gets the recorded response of the same method, path, query and body, whatever \
            host it was recorded from; repeated requests replay in recorded order. A request with \
            no recording gets 404 naming it. Ctrl-C stops it.

            Examples:
              courier get https://api.example.com/movies --record movies.json
              courier replay movies.json --port 9000
              courier get http://127.0.0.1:9000/movies
            """
    )

    @Argument(help: "Cassette files (JSON) to serve; their recordings are combined.")
    var cassettes: [String]

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(
        help: "The port to listen on (\(NumericOption.describe(NumericOption.ports))); 0 picks a free one.",
        transform: NumericOption.integer(in: NumericOption.ports)
    )
    var port = 8080

    @OptionGroup var server: ServerOptions

    func validate() throws {
        guard !cassettes.isEmpty else { throw ValidationError("Give at least one cassette file.") }
    }

    func run() async throws {
        var combined = Cassette()
        for path in cassettes {
            do {
                combined.interactions += try Cassette.load(from: URL(fileURLWithPath: path)).interactions
            } catch {
                throw CommandFailure(error.description, status: .usage)
            }
        }
        let player = CassettePlayer(combined)
        let count = combined.interactions.count
        let (host, port, limits) = (host, port, server.limits)
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in
                try await Self.respond(to: request, with: player, listeningOn: host)
            },
            server: limits.server,
            configuration: limits.configuration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                Terminal.output("Replaying \(count) recorded exchanges on http://\(host):\(bound). Ctrl-C stops it.")
            },
            logger: Logger(label: "courier.replay") { _ in SwiftLogNoOpLogHandler() }
        )
        do {
            try await limits.run(app)
        } catch let error as IOError {
            throw CommandFailure(cannotListenOn: "\(host):\(port)", ListenFailure(error))
        }
        Terminal.output("Stopped.")
    }

    /// Header fields the server sets itself for the body it sends.
    private static let framing: Set<HTTPField.Name> = [.contentLength, .transferEncoding, .connection]

    /// The recorded answer to `request`. Only requests addressed to this machine (a loopback
    /// `Host`, or the address it listens on) are answered: a web page cannot point a name of its
    /// own at 127.0.0.1 and read the recordings (DNS rebinding).
    static func respond(
        to request: Request,
        with player: CassettePlayer,
        listeningOn host: String
    ) async throws
        -> Response
    {
        // The Host is parsed strictly, once (HTTPAuthority): `127.0.0.1:80@evil.example` is no
        // name of this machine.
        let listening = HTTPAuthority(parsing: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        guard let authority = request.head.authority, let parsed = HTTPAuthority(parsing: authority),
            parsed.isLoopback || parsed.host == listening?.host
        else {
            return Self.text(
                "courier replay answers only requests addressed to this machine (Host: 127.0.0.1 or localhost)",
                status: .misdirectedRequest
            )
        }
        // A page of another site may send requests here, but it gets nothing to read: no
        // recorded Access-Control-* field is sent, and a request it makes is refused.
        if let origin = request.headers[.origin], !Self.isOwn(origin: origin, host: parsed) {
            return Self.text("courier replay answers no other site's pages (Origin: \(origin))", status: .forbidden)
        }
        if let site = request.headers[.secFetchSite], site != "same-origin", site != "none" {
            return Self.text("courier replay answers no other site's pages (\(site) request)", status: .forbidden)
        }
        let body = Data((try await request.body.collect(upTo: 64 << 20)).readableBytesView)
        // Secrets in the request are redacted as in the recordings, and never echoed.
        let target = Redaction.redactingURL(request.uri.description)
        let contentType = request.headers[.contentType]
        guard
            let recorded = player.response(
                method: request.method.rawValue,
                target: target,
                body: body,
                contentType: contentType
            )
        else {
            return Self.text(
                "courier replay: no recording of \(request.method) \(target) (the cassettes hold \(player.summary))",
                status: .notFound
            )
        }
        let headers = recorded.headerFields.filter {
            !framing.contains($0.name) && !$0.name.canonicalName.hasPrefix("access-control-")
        }
        return Response(
            status: HTTPResponse.Status(code: recorded.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: recorded.body?.data ?? Data()))
        )
    }

    /// Whether `origin` (`http://host[:port]`) is this server's as the request names it, the
    /// port 80 written or not.
    private static func isOwn(origin: String, host: HTTPAuthority) -> Bool {
        guard origin.hasPrefix("http://"), let named = HTTPAuthority(parsing: origin.dropFirst(7)) else { return false }
        return named.host == host.host && (named.port ?? 80) == (host.port ?? 80)
    }

    /// A plain-text answer of one line.
    private static func text(_ line: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: line + "\n"))
        )
    }
}
