import CompressNIO
public import Courier
public import Foundation
import HTTPTypes
public import HummingbirdTesting
import NIOCore

/// A transport that hands each request to a Hummingbird application in this process, through
/// HummingbirdTesting's router framework: no socket, no port, no server to start or stop. Route
/// tests talk to a service with an ``HTTPClient`` over it, as a program would over a network.
///
/// ```swift
/// try await Application(router: router).test(.router) { client in
///     let http = HTTPClient(transport: RouterTransport(client), configuration: .init(baseURL: RouterTransport.origin))
/// }
/// ```
public struct RouterTransport: HTTPTransport {
    /// The address requests name: a loopback one, which the default security policy lets go
    /// over cleartext. Nothing listens there; only the path and query reach the routes.
    public static let origin = URL(string: "http://127.0.0.1")!

    private let client: any TestClientProtocol

    /// A transport to the application `client` tests.
    public init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// The application's answer to `request`. A streamed body is collected first.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        var body = request.body
        if let streamed = request.streamedBody {
            var collected = Data()
            for try await chunk in streamed.chunks(for: request.summary) { collected.append(chunk) }
            body = collected
        }
        var fields = request.head.headerFields
        for (name, value) in request.wireFields {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        do {
            let response = try await client.executeRequest(
                uri: request.head.path ?? "/",
                method: request.head.method,
                headers: fields,
                body: body.map { ByteBuffer(bytes: $0) }
            )
            return try Self.decoded(response, url: request.url)
        } catch let error as RequestError {
            throw error
        } catch {
            throw .transport(TransportFailure(.other, request: request.summary, detail: "\(error)"))
        }
    }

    /// What a transport hands the client: the status with its reason phrase, as it reads on
    /// the wire, and a body in gzip or deflate decoded, its `Content-Encoding` and
    /// `Content-Length` gone, as Courier's transports do.
    static func decoded(_ response: TestResponse, url: String) throws -> RawResponse {
        var head = response.head
        head.status = HTTPResponse.Status(
            code: head.status.code,
            reasonPhrase: ReasonPhrase.standard(for: head.status.code)
        )
        var body = response.body
        switch head.headerFields[.contentEncoding]?.lowercased() {
        case "gzip": body = try body.decompress(with: .gzip())
        case "deflate": body = try body.decompress(with: .zlib())
        default: return RawResponse(head: head, body: Data(body.readableBytesView), url: url)
        }
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = nil
        return RawResponse(head: head, body: Data(body.readableBytesView), url: url)
    }
}
