public import Courier
import CourierAsyncHTTPClient
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
        // The fields as a transport writes them (the store's cookies joined into one), each
        // kept: a field sent twice reaches the routes twice.
        var fields = HTTPFields()
        for (name, value) in request.wireFields {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        do {
            let response = try await client.executeRequest(
                uri: request.head.path ?? "/",
                method: request.head.method,
                headers: fields,
                body: body.map { ByteBuffer(bytes: $0) }
            )
            return try Self.decoded(response, for: request)
        } catch let error as RequestError {
            throw error
        } catch {
            throw .transport(TransportFailure(.other, request: request.summary, detail: "\(error)"))
        }
    }

    /// What a transport hands the client: the status with its reason phrase, as it reads on
    /// the wire, and the body with the codings the request accepted undone by the decoder the
    /// AsyncHTTPClient transport uses (a truncated or corrupt body fails as it would there),
    /// within the request's size limit, the head then losing `Content-Encoding` and
    /// `Content-Length`. HEAD and 304 answers keep their head as it is.
    static func decoded(_ response: TestResponse, for request: PreparedRequest) throws(RequestError) -> RawResponse {
        var head = response.head
        head.status = HTTPResponse.Status(
            code: head.status.code,
            reasonPhrase: ReasonPhrase.standard(for: head.status.code)
        )
        let limit = request.maxResponseSize
        let codings = ContentCoding.codingsToUndo(
            in: head,
            method: request.head.method,
            requested: request.head.headerFields[values: .acceptEncoding]
        )
        guard !codings.isEmpty else {
            guard response.body.readableBytes <= limit else { throw .bodyTooLarge(request.summary, limit: limit) }
            return RawResponse(head: head, body: Data(response.body.readableBytesView), url: request.url)
        }
        let decoder = ContentDecoder(codings: codings, limit: limit)
        var body = Data()
        do {
            decoder.push(response.body)
            while let window = try decoder.next() { body.append(contentsOf: window.readableBytesView) }
            try decoder.finish()
        } catch .tooLarge {
            throw .bodyTooLarge(request.summary, limit: limit)
        } catch {
            throw .transport(TransportFailure(.undecodableBody, request: request.summary, detail: error.detail))
        }
        return RawResponse(head: ContentCoding.decodedHead(head), body: body, url: request.url)
    }
}
