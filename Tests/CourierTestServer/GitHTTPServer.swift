public import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Debian's `git http-backend`, run as a CGI program for each request by a loopback HTTP (or
/// HTTPS) server, with `GIT_PROJECT_ROOT` a directory of the caller's and every repository
/// exported: git's smart HTTP protocol as a real server speaks it, v0 and v2.
///
/// Beside the repositories at `/<name>.git`, it serves the same ones:
/// - `/private/<name>.git`: only with HTTP Basic `alice` / ``password`` (else 401);
/// - `/forbidden/<name>.git`: 403, whatever the credentials;
/// - `/dumb/<name>.git`: the repository's files, as git's dumb protocol reads them;
/// - `/moved/<name>.git`: a 301 to `localhost` on the same port, another origin;
/// - `/private-moved/<name>.git`: 401 without alice's credentials, then that 301;
/// - `/downgrade/<name>.git`: a 301 to `http://127.0.0.1:1/…` (cleartext; nothing listens);
/// - `/html/<name>.git`: a login page, 200 `text/html`;
/// - `/endless/…`, `/overlong/…`, `/stall/…`, `/wrong-result/…`, `/trailing/…`: the hostile
///   answers their names say.
///
/// ```swift
/// try await GitHTTPServer.withRunning(root: repositories) { server in
///     let url = server.url("full.git")  // http://127.0.0.1:<port>/full.git
/// }
/// ```
public struct GitHTTPServer: Sendable {
    /// The port.
    public let port: Int
    /// `http` or `https`.
    public let scheme: String
    /// The directory the repositories are in.
    public let root: URL
    /// The requests the server received, in order.
    public let log: GitHTTPLog

    /// The user and password `/private/` accepts.
    public static let user = "alice"
    /// The password `/private/` accepts.
    public static let password = "s3cret-token"

    /// `<scheme>://<host>:<port>/<path>`.
    public func url(_ path: String, host: String = "127.0.0.1") -> String {
        "\(scheme)://\(host):\(port)/\(path)"
    }

    /// Serves the repositories in `root` on a free port of 127.0.0.1 — over HTTPS with
    /// `certificate` when given — runs `body`, and stops the server.
    public static func withRunning<Result: Sendable>(
        root: URL,
        certificate: TestCertificates? = nil,
        _ body: @Sendable (GitHTTPServer) async throws -> Result
    ) async throws -> Result {
        let log = GitHTTPLog()
        let port = Mutex(0)
        let router = Router()
        router.add(middleware: GitHTTPRequestRecorder(log: log))
        let routes = GitHTTPRoutes(
            root: root,
            port: { port.withLock { $0 } },
            scheme: certificate == nil ? "http" : "https"
        )
        routes.add(to: router)
        return try await TestServer.serving(router, certificate: certificate) { boundPort, scheme in
            port.withLock { $0 = boundPort }
            return try await body(GitHTTPServer(port: boundPort, scheme: scheme, root: root, log: log))
        }
    }
}

/// What a ``GitHTTPServer`` received.
public final class GitHTTPLog: Sendable {
    /// One request.
    public struct Entry: Sendable, Equatable {
        /// `GET`, `POST`.
        public var method: String
        /// The path and query.
        public var target: String
        /// The `Host` field.
        public var host: String
        /// The `Authorization` field, if any.
        public var authorization: String?
        /// The `Git-Protocol` field, if any.
        public var gitProtocol: String?
    }

    private let entries = Mutex<[Entry]>([])

    init() {}

    /// Every request so far.
    public var requests: [Entry] { entries.withLock { $0 } }

    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
}

/// Notes each request in the log.
private struct GitHTTPRequestRecorder: RouterMiddleware {
    let log: GitHTTPLog

    func handle(
        _ request: Request,
        context: BasicRequestContext,
        next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        log.append(
            GitHTTPLog.Entry(
                method: request.method.rawValue,
                target: request.uri.description,
                host: request.head.authority ?? "",
                authorization: request.headers[.authorization],
                gitProtocol: request.headers[HTTPField.Name("Git-Protocol")!]
            )
        )
        return try await next(request, context)
    }
}

/// The routes of a ``GitHTTPServer``.
private struct GitHTTPRoutes: Sendable {
    let root: URL
    let port: @Sendable () -> Int
    let scheme: String

    func add(to router: Router<BasicRequestContext>) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("**", method: method) { request, _ in try await answer(request) }
        }
    }

    private func answer(_ request: Request) async throws -> Response {
        let path = request.uri.path
        let segments = path.split(separator: "/", maxSplits: 1)
        let rest = segments.count == 2 ? "/" + segments[1] : "/"
        let query = request.uri.query.map { "?" + $0 } ?? ""
        switch segments.first ?? "" {
        case "private":
            let expected = "Basic " + Data("\(GitHTTPServer.user):\(GitHTTPServer.password)".utf8).base64EncodedString()
            guard request.headers[.authorization] == expected else {
                var headers = HTTPFields()
                headers[.wwwAuthenticate] = "Basic realm=\"git\""
                return Response(status: .unauthorized, headers: headers)
            }
            return try await cgi(request, pathInfo: rest, user: GitHTTPServer.user)
        case "private-moved":
            // Asks for credentials, then sends the client on to localhost, another origin.
            let expected = "Basic " + Data("\(GitHTTPServer.user):\(GitHTTPServer.password)".utf8).base64EncodedString()
            guard request.headers[.authorization] == expected else {
                var headers = HTTPFields()
                headers[.wwwAuthenticate] = "Basic realm=\"git\""
                return Response(status: .unauthorized, headers: headers)
            }
            return redirect(to: "\(scheme)://localhost:\(port())\(rest)\(query)")
        case "forbidden":
            return Response(status: .forbidden)
        case "dumb":
            return try file(rest)
        case "moved":
            return redirect(to: "\(scheme)://localhost:\(port())\(rest)\(query)")
        case "downgrade":
            return redirect(to: "http://127.0.0.1:1\(rest)\(query)")
        case "html":
            return Self.body("<html><body>Sign in</body></html>", type: "text/html; charset=utf-8")
        case "endless":
            return Self.endlessAdvertisement()
        case "overlong":
            return Self.body("001e# service=git-upload-pack\n0000fff1", type: Self.advertisementType)
        case "stall":
            return Self.stall()
        case "trailing":
            // A v2 capability advertisement and then 100 KiB that belong to no packet; ls-refs
            // is answered by the real backend.
            if request.method == .post { return try await cgi(request, pathInfo: rest, user: nil) }
            let capabilities = ["version 2\n", "agent=git/2\n", "ls-refs=unborn\n", "object-format=sha1\n"]
            let packets = capabilities.map { String(format: "%04x", $0.utf8.count + 4) + $0 }.joined() + "0000"
            return Self.body(packets + String(repeating: "x", count: 100 << 10), type: Self.advertisementType)
        case "wrong-result":
            if request.method == .post { return Self.body("0000", type: "text/plain") }
            return try await cgi(request, pathInfo: rest, user: nil)
        default:
            return try await cgi(request, pathInfo: path, user: nil)
        }
    }

    // MARK: - CGI

    /// Runs `git http-backend` for `request` as RFC 3875 says, its output streamed back.
    private func cgi(_ request: Request, pathInfo: String, user: String?) async throws -> Response {
        let body = try await request.body.collect(upTo: 16 << 20)
        let process = Process()
        process.executableURL = try Self.httpBackend()
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "GIT_PROJECT_ROOT": root.path,
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REQUEST_METHOD": request.method.rawValue,
            "PATH_INFO": pathInfo,
            "QUERY_STRING": request.uri.query ?? "",
            "REMOTE_ADDR": "127.0.0.1",
        ]
        if let user { environment["REMOTE_USER"] = user }
        for field in request.headers {
            let name = field.name.canonicalName.uppercased().replacingOccurrences(of: "-", with: "_")
            environment["HTTP_" + name] = field.value
        }
        if let protocolHeader = request.headers[HTTPField.Name("Git-Protocol")!] {
            environment["GIT_PROTOCOL"] = protocolHeader
        }
        if let type = request.headers[.contentType] { environment["CONTENT_TYPE"] = type }
        if body.readableBytes > 0 || request.method == .post { environment["CONTENT_LENGTH"] = "\(body.readableBytes)" }
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = Data(body.readableBytesView)
        Thread {
            try? input.fileHandleForWriting.write(contentsOf: bytes)
            try? input.fileHandleForWriting.close()
        }.start()
        // The header comes whole, read on the thread that then streams the body on.
        let (chunks, sink) = AsyncStream.makeStream(of: Data.self)
        let head: Data = await withCheckedContinuation { continuation in
            Thread {
                var pending = Data()
                var headerSent = false
                PipeReader.readChunks(output.fileHandleForReading) { chunk in
                    guard !headerSent else {
                        sink.yield(chunk)
                        return
                    }
                    pending.append(chunk)
                    // A header longer than 64 KiB is no CGI header: answered as one without an end.
                    if pending.count > 64 << 10 || pending.range(of: Data("\n\n".utf8)) != nil
                        || pending.range(of: Data("\r\n\r\n".utf8)) != nil
                    {
                        headerSent = true
                        continuation.resume(returning: pending)
                    }
                }
                if !headerSent { continuation.resume(returning: pending) }
                sink.finish()
                process.waitUntilExit()
            }.start()
        }
        return Self.response(head: head, rest: chunks)
    }

    /// `git-http-backend` in git's directory of programs.
    private static func httpBackend() throws -> URL {
        URL(fileURLWithPath: try execPath.get()).appendingPathComponent("git-http-backend")
    }

    /// `git --exec-path`, asked once.
    private static let execPath = Result {
        try GitRepositories.git(["--exec-path"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The CGI program's header fields (and `Status`), then its body: what follows them in
    /// `head`, then `rest` as it comes.
    private static func response(head: Data, rest: AsyncStream<Data>) -> Response {
        guard let headerEnd = head.range(of: Data("\r\n\r\n".utf8)) ?? head.range(of: Data("\n\n".utf8)) else {
            return Response(status: .internalServerError)
        }
        var status = HTTPResponse.Status.ok
        var headers = HTTPFields()
        let headerText = String(decoding: head[..<headerEnd.lowerBound], as: UTF8.self)
        for line in headerText.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name.lowercased() == "status" {
                status = HTTPResponse.Status(code: Int(value.prefix(3)) ?? 500)
            } else if let fieldName = HTTPField.Name(name) {
                headers.append(HTTPField(name: fieldName, value: value))
            }
        }
        let first = Data(head[headerEnd.upperBound...])
        return Response(
            status: status,
            headers: headers,
            body: ResponseBody { writer in
                if !first.isEmpty { try await writer.write(ByteBuffer(bytes: first)) }
                for await chunk in rest { try await writer.write(ByteBuffer(bytes: chunk)) }
                try await writer.finish(nil)
            }
        )
    }

    // MARK: - The other answers

    private static let advertisementType = "application/x-git-upload-pack-advertisement"

    /// A file of a repository, for the dumb protocol; 404 for anything outside `root`.
    private func file(_ path: String) throws -> Response {
        guard !path.split(separator: "/").contains(".."), !path.contains("?") else {
            return Response(status: .notFound)
        }
        let url = root.appendingPathComponent(String(path.dropFirst()))
        guard let data = FileManager.default.contents(atPath: url.path) else { return Response(status: .notFound) }
        return Self.body(String(decoding: data, as: UTF8.self), type: "text/plain")
    }

    private func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: .movedPermanently, headers: headers)
    }

    private static func body(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The service header, then refs without end (until the client leaves or 4 GiB).
    private static func endlessAdvertisement() -> Response {
        advertisement { writer in
            let payload = String(repeating: "a", count: 40) + " refs/heads/endless\n"
            let line = String(format: "%04x", payload.utf8.count + 4) + payload
            let chunk = ByteBuffer(string: String(repeating: line, count: 1000))
            for _ in 0..<(4 << 30) / chunk.readableBytes { try await writer.write(chunk) }
        }
    }

    /// The service header and the start of a packet, then nothing until the client leaves (or
    /// the server stops).
    private static func stall() -> Response {
        advertisement { writer in
            try await writer.write(ByteBuffer(string: "fff0bbbb"))
            let (never, _) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}  // ends when the request's task is cancelled
        }
    }

    /// A smart advertisement's type and service header, then what `rest` writes.
    private static func advertisement(
        _ rest: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = advertisementType
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "001e# service=git-upload-pack\n0000"))
                var writer: any ResponseBodyWriter = writer
                try await rest(&writer)
                try await writer.finish(nil)
            }
        )
    }
}
