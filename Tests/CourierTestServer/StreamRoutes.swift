import Crypto
public import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Routes that stream: bodies held mid-way until a test says, endless lines and error pages,
/// silences, and a Server-Sent Events service that drops connections and resumes from
/// `Last-Event-ID`.
///
/// - `GET /stream/held/{name}?first=TEXT&rest=TEXT`: sends `first`, waits until
///   `events.release(name)`, then sends `rest`.
/// - `GET /stream/silent/{name}`: sends nothing until `events.release(name)` (Hummingbird sends
///   the head with the first piece of the body, so not even the head), then an empty body.
/// - `GET /stream/lines?count=N&crlf`: `line 1` … `line N`, each ending in LF (CRLF with `crlf`).
/// - `GET /stream/text?body=TEXT&type=TYPE`: the text, with the media type given.
/// - `GET /stream/endless?id=ID&byte=B&status=S&paced`: the byte (`a` by default) for ever, with
///   the status given (200 by default); the client's leaving is recorded under `ID`. `paced`
///   sends 16 KiB a millisecond at most, for clients that cannot hold a server back.
/// - `GET /events/{key}?count=N&per_connection=K&retry=MS&end=204|close`: events `1`…`N` with
///   ids, at most K per connection (then the connection is closed, mid-stream), `retry: MS` first.
///   A request carrying `Last-Event-ID: n` resumes after event n; once all are sent, the next
///   request gets a 204 (`end=204`, the default) or an empty stream. Every request counts a hit
///   under `events:<key>` and records its `Last-Event-ID` (or `-`) under the route `events:<key>`.
/// - `PUT|POST /upload`: reads the body as it comes and answers JSON: its `bytes`, `sha256`
///   (hex), and the `contentLength` and `transferEncoding` it was sent with (or `-`).
enum StreamRoutes {
    static func add(to router: Router<BasicRequestContext>, events: TestServerEvents) {
        for method in [HTTPRequest.Method.put, .post] {
            router.on("/upload", method: method) { request, _ in
                var hash = SHA256()
                var bytes = 0
                for try await buffer in request.body {
                    bytes += buffer.readableBytes
                    buffer.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
                }
                let digest = UploadReceipt.hex(hash.finalize())
                let upload = UploadReceipt(
                    bytes: bytes,
                    sha256: digest,
                    contentLength: request.headers[.contentLength] ?? "-",
                    transferEncoding: request.headers[HTTPField.Name("Transfer-Encoding")!] ?? "-"
                )
                let body = try JSONEncoder().encode(upload)
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: body))
                )
            }
        }
        router.get("/stream/held/{name}") { request, context in
            let name = context.parameters.get("name") ?? ""
            let first = request.uri.queryParameters.get("first") ?? "first"
            let rest = request.uri.queryParameters.get("rest") ?? "rest"
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: first))
                    await events.waitForRelease(name)
                    try await writer.write(ByteBuffer(string: rest))
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/stream/silent/{name}") { _, context in
            let name = context.parameters.get("name") ?? ""
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain"],
                body: ResponseBody { writer in
                    await events.waitForRelease(name)
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/stream/lines") { request, _ in
            let count = request.uri.queryParameters.get("count", as: Int.self) ?? 3
            let ending = request.uri.queryParameters.get("crlf") != nil ? "\r\n" : "\n"
            var text = ""
            for number in stride(from: 1, through: count, by: 1) { text += "line \(number)\(ending)" }
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: text))
            )
        }
        router.get("/stream/text") { request, _ in
            let body = request.uri.queryParameters.get("body") ?? ""
            let type = request.uri.queryParameters.get("type") ?? "text/plain"
            var headers = HTTPFields()
            headers[.contentType] = type
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("/stream/endless") { request, _ in
            let id = request.uri.queryParameters.get("id") ?? "endless"
            let byte = request.uri.queryParameters.get("byte")?.utf8.first ?? UInt8(ascii: "a")
            let status = request.uri.queryParameters.get("status", as: Int.self) ?? 200
            let paced = request.uri.queryParameters.get("paced") != nil
            let chunk = ByteBuffer(repeating: byte, count: 16 * 1024)
            return Response(
                status: HTTPResponse.Status(code: status),
                headers: [.contentType: "text/plain"],
                body: ResponseBody { writer in
                    do {
                        while true {
                            try await writer.write(chunk)
                            // The server's own sending rate (16 MiB/s), not an ordering: no test
                            // waits on it; it keeps a reader that cannot hold the server back in step.
                            if paced { try await Task.sleep(for: .milliseconds(1)) }
                        }
                    } catch {
                        await events.recordDisconnect(id)
                        throw error
                    }
                }
            )
        }
        router.get("/events/{key}") { request, context in
            try await eventStream(request, context, events: events)
        }
    }

    private static func eventStream(
        _ request: Request,
        _ context: BasicRequestContext,
        events: TestServerEvents
    ) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        let parameters = request.uri.queryParameters
        let count = parameters.get("count", as: Int.self) ?? 3
        let perConnection = parameters.get("per_connection", as: Int.self) ?? Int.max
        let lastID = request.headers[HTTPField.Name("Last-Event-ID")!]
        await events.record(query: lastID ?? "-", for: "events:\(key)")
        _ = await events.hit("events:\(key)")
        let first = (lastID.flatMap { Int($0) } ?? 0) + 1
        if first > count, parameters.get("end") != "close" { return Response(status: .noContent) }
        let last = min(count, first + min(perConnection, count) - 1)
        var text = parameters.get("retry").map { "retry: \($0)\n\n" } ?? ""
        if first <= last {
            for number in first...last { text += "id: \(number)\ndata: event \(number)\n\n" }
        }
        let body = ByteBuffer(string: text)
        let dropsMidStream = last < count
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await writer.write(body)
                // Closing without finishing the chunked body is a connection lost mid-stream.
                if dropsMidStream { throw CancellationError() }
                try await writer.finish(nil)
            }
        )
    }
}

/// What the test server's `/upload` route answers.
public struct UploadReceipt: Codable, Sendable {
    /// The body's size.
    public var bytes: Int
    /// The body's SHA-256, in hex.
    public var sha256: String
    /// The `Content-Length` it was sent with, or `-`.
    public var contentLength: String
    /// The `Transfer-Encoding` it was sent with, or `-`.
    public var transferEncoding: String

    /// The SHA-256 of `data`, in hex.
    public static func sha256(of data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
