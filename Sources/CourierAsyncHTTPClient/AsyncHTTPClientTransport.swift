public import AsyncHTTPClient
public import Courier
public import Foundation
public import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// The AsyncHTTPClient transport: pooled HTTP/1.1 and HTTP/2 connections on SwiftNIO, the
/// default on Linux.
///
/// Create one per program and shut it down when done, or let
/// ``withTransport(configuration:_:)`` do both:
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let client = HTTPClient(transport: transport)
///     let movie = try await client.send(MovieDB.movie(550).details)
///     print(movie.title)
/// }
/// ```
///
/// It never follows redirects itself (`HTTPClient` does, checking the security
/// policy on every hop), undoes gzip and deflate content codings as the body arrives (see
/// `ContentCoding`), reads at most `PreparedRequest.maxResponseSize` bytes (decoded), ends
/// at the request's timeout, and closes the connection when the calling task is cancelled.
/// A request that `PreparedRequest.isRepeatable` is sent once more when its connection closed
/// before any of the response arrived: a pooled connection that the server closed while idle
/// looks alive until it is used. (So a server that fails as it commits a PUT may see it twice,
/// as RFC 9112 §9.3.1 allows for idempotent methods.)
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// Connection settings.
    public struct Configuration: Sendable {
        /// The longest time to establish a connection (TCP and TLS).
        public var connectTimeout: Duration
        /// How many HTTP/1.1 connections to keep per host (an HTTP/2 host gets one).
        public var maxConnectionsPerHost: Int
        /// How long an idle pooled connection is kept.
        public var idleTimeout: Duration
        /// The longest wait for the next bytes of a response once it has started: a stalled
        /// transfer then fails with `TransportFailure.Kind.timedOut` even where no total
        /// timeout applies (downloads). `nil` waits for ever.
        public var readTimeout: Duration?
        /// Whether the pool silently retries failed connection attempts until the connect timeout.
        ///
        /// Off by default: a refused connection then fails at once with
        /// `TransportFailure.Kind.connectionRefused`, and the `Retry`
        /// middleware decides, visibly and the same way for every transport, whether to try again.
        public var retriesConnectionEstablishment: Bool
        /// Certificates trusted besides the system's roots, for services whose certificate a
        /// private authority signed, or that sign their own.
        public var additionalTrustRoots: TrustedCertificates
        /// Whether HTTPS connections may speak HTTP/2 when the server offers it (by ALPN): then
        /// one connection carries every concurrent request to a host. `false` keeps to
        /// HTTP/1.1, with up to ``maxConnectionsPerHost`` connections.
        public var allowsHTTP2: Bool
        /// The HTTP proxies requests go through, and the hosts reached directly; none by
        /// default. `try ProxySettings(environment: ProcessInfo.processInfo.environment)` follows
        /// `https_proxy`, `http_proxy`, `all_proxy` and `no_proxy` as curl does.
        ///
        /// An `https` request goes through a `CONNECT` tunnel, the TLS handshake and the
        /// certificate check being with the origin: the proxy sees the host and port, never the
        /// request. A plain `http` request is sent to the proxy whole (its line names the full
        /// URL), on a connection of its own. The proxy's credentials go to the proxy only, in
        /// `Proxy-Authorization`.
        public var proxy: ProxySettings

        /// Creates a configuration.
        public init(
            connectTimeout: Duration = .seconds(10),
            maxConnectionsPerHost: Int = 8,
            idleTimeout: Duration = .seconds(60),
            readTimeout: Duration? = .seconds(60),
            retriesConnectionEstablishment: Bool = false,
            additionalTrustRoots: TrustedCertificates = .none,
            allowsHTTP2: Bool = true,
            proxy: ProxySettings = .none
        ) {
            self.connectTimeout = connectTimeout
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.idleTimeout = idleTimeout
            self.readTimeout = readTimeout
            self.retriesConnectionEstablishment = retriesConnectionEstablishment
            self.additionalTrustRoots = additionalTrustRoots
            self.allowsHTTP2 = allowsHTTP2
            self.proxy = proxy
        }
    }

    /// The AsyncHTTPClient requests go through (those sent directly, not through a proxy).
    public let client: AsyncHTTPClient.HTTPClient
    private let ownsClient: Bool
    /// Which requests go through a proxy.
    private let proxies: ProxySettings
    /// The client for `https` requests through `proxies.https`, tunnelled with `CONNECT`.
    private let tunnel: AsyncHTTPClient.HTTPClient?
    /// What `http` requests through `proxies.http` need.
    private let connectTimeout: Duration
    private let readTimeout: Duration?

    /// Creates a transport with its own connection pool on the shared event loops; call
    /// ``shutdown()`` when done.
    public init(configuration: Configuration = Configuration()) {
        var settings = AsyncHTTPClient.HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: TimeAmount(configuration.connectTimeout),
                read: configuration.readTimeout.map { TimeAmount($0) }
            ),
            connectionPool: .init(
                idleTimeout: TimeAmount(configuration.idleTimeout),
                concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maxConnectionsPerHost
            )
        )
        settings.httpVersion = configuration.allowsHTTP2 ? .automatic : .http1Only
        settings.connectionPool.retryConnectionEstablishment = configuration.retriesConnectionEstablishment
        if configuration.additionalTrustRoots.count > 0 {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(configuration.additionalTrustRoots.certificates)]
            settings.tlsConfiguration = tls
        }
        self.client = AsyncHTTPClient.HTTPClient(
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
            configuration: settings
        )
        self.ownsClient = true
        self.proxies = configuration.proxy
        self.tunnel = configuration.proxy.https.map { proxy in
            settings.proxy = .server(
                host: proxy.host,
                port: proxy.port,
                authorization: proxy.credentials.map { .basic(username: $0.user, password: $0.password) }
            )
            return AsyncHTTPClient.HTTPClient(
                eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
                configuration: settings
            )
        }
        self.connectTimeout = configuration.connectTimeout
        self.readTimeout = configuration.readTimeout
    }

    /// Creates a transport on an existing client, which you keep and shut down yourself. It
    /// sends every request as that client does: ``Configuration/proxy`` does not apply (give the
    /// client its own `proxy` if it needs one).
    ///
    /// Configure it with `redirectConfiguration: .disallow`, or its redirects will bypass
    /// Courier's security policy, and leave its `decompression` `.disabled` (the default): the
    /// transport decodes bodies itself, and AsyncHTTPClient's decompression leaves
    /// `Content-Encoding` in place on a body it has already decoded.
    public init(client: AsyncHTTPClient.HTTPClient) {
        self.client = client
        self.ownsClient = false
        self.proxies = .none
        self.tunnel = nil
        // Used by plain `http` requests through a proxy, which such a transport does not have.
        self.connectTimeout = .seconds(10)
        self.readTimeout = nil
    }

    /// Runs `body` with a new transport and shuts the transport down afterwards, whether `body`
    /// returns or throws.
    public static func withTransport<Result>(
        configuration: Configuration = Configuration(),
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let result: Result
        do {
            result = try await body(transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        return result
    }

    /// Closes the pooled connections. Does nothing for a client you passed in.
    public func shutdown() async throws {
        guard ownsClient else { return }
        // Both pools, whichever fails.
        var failure: (any Error)?
        do { try await tunnel?.shutdown() } catch { failure = error }
        try await client.shutdown()
        if let failure { throw failure }
    }

    // MARK: - Sending

    /// Sends the request; see `HTTPTransport.send(_:)`.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        let url = request.url
        let deadline = request.timeLeft.map { NIODeadline.now() + TimeAmount($0) } ?? .distantFuture
        let route = route(for: request)
        do {
            return try await exchange(request, on: route, deadline: deadline) { response in
                let limit = request.maxResponseSize
                if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > limit {
                    throw RequestError.bodyTooLarge(request.summary, limit: limit)
                }
                let head = Self.head(of: response)
                let codings = ContentCoding.codingsToUndo(
                    in: head,
                    method: request.head.method,
                    requested: request.head.headerFields[values: .acceptEncoding]
                )
                // The head came within the deadline; the body must too, however slowly it trickles.
                var raw: RawResponse
                if codings.isEmpty {
                    let bytes = try await beforeDeadline(deadline) { try await response.body.collect(upTo: limit) }
                    raw = RawResponse(head: head, body: Data(bytes.readableBytesView), url: url)
                } else {
                    let body = try await beforeDeadline(deadline) {
                        var body = Data()
                        try await Self.decode(response.body, codings, limit: limit, request: request.summary) {
                            window in
                            body.append(contentsOf: window.readableBytesView)
                        }
                        return body
                    }
                    raw = RawResponse(head: ContentCoding.decodedHead(head), body: body, url: url)
                }
                raw.httpVersion =
                    response.version.major >= 2 ? "HTTP/\(response.version.major)" : "\(response.version)"
                return raw
            }
        } catch {
            throw Self.requestError(for: error, request: request, proxy: route.proxy)
        }
    }

    /// Sends the request and hands the response on as it arrives; see
    /// `HTTPTransport.send(_:head:body:)`. Reading waits for `body`, so a slow
    /// receiver slows the transfer instead of filling memory.
    public func send(
        _ request: PreparedRequest,
        head: @escaping @Sendable (HTTPResponse) async throws(RequestError) -> Void,
        body: @escaping @Sendable (Data) async throws(RequestError) -> Void
    ) async throws(RequestError) {
        let deadline = request.timeLeft.map { NIODeadline.now() + TimeAmount($0) } ?? .distantFuture
        let route = route(for: request)
        do {
            try await exchange(request, on: route, deadline: deadline) { response in
                let responseHead = Self.head(of: response)
                let codings = ContentCoding.codingsToUndo(
                    in: responseHead,
                    method: request.head.method,
                    requested: request.head.headerFields[values: .acceptEncoding]
                )
                try await head(codings.isEmpty ? responseHead : ContentCoding.decodedHead(responseHead))
                // The body too ends at the deadline (none for downloads, whose requests have no
                // timeout), unless the receiver holds it: then the exchange waits for the receiver.
                try await beforeDeadline(deadline) {
                    guard !codings.isEmpty else {
                        for try await buffer in response.body {
                            try await body(Self.data(buffer))
                        }
                        return
                    }
                    try await Self.decode(response.body, codings, limit: .max, request: request.summary) { window in
                        try await body(Self.data(window))
                    }
                }
            }
        } catch {
            throw Self.requestError(for: error, request: request, proxy: route.proxy)
        }
    }

    // MARK: - Routes

    /// How a request reaches its origin: directly or through a `CONNECT` tunnel, both on an
    /// AsyncHTTPClient pool, or whole through a proxy (plain `http`).
    private enum Route {
        case pool(AsyncHTTPClient.HTTPClient, proxy: ProxyServer?)
        case forwarded(ProxyForwarder)

        /// The proxy the request goes through, if any.
        var proxy: ProxyServer? {
            switch self {
            case .pool(_, let proxy): proxy
            case .forwarded(let forwarder): forwarder.proxy
            }
        }
    }

    /// The route `proxies` give `request`.
    private func route(for request: PreparedRequest) -> Route {
        let scheme = request.head.scheme?.lowercased() ?? "https"
        guard let proxy = proxies.proxy(forScheme: scheme, host: request.host) else { return .pool(client, proxy: nil) }
        if scheme == "https", let tunnel { return .pool(tunnel, proxy: proxy) }
        let group = client.eventLoopGroup
        return .forwarded(
            ProxyForwarder(proxy: proxy, group: group, connectTimeout: connectTimeout, readTimeout: readTimeout)
        )
    }

    /// Sends `request` on `route` and hands the response to `handle`, whose body is read from
    /// the connection as `handle` asks for it.
    private func exchange<Result: Sendable>(
        _ request: PreparedRequest,
        on route: Route,
        deadline: NIODeadline,
        _ handle: (HTTPClientResponse) async throws -> Result
    ) async throws -> Result {
        switch route {
        case .pool(let client, _):
            return try await handle(try await execute(request, on: client, deadline: deadline))
        case .forwarded(let forwarder):
            return try await forwarder.execute(request, deadline: deadline, handle)
        }
    }

    /// Sends `request` and waits for the response head; sends it once more when its connection
    /// closed or was reset before any of the response arrived (while it was being set up too)
    /// and the request `isRepeatable` (RFC 9112 §9.3.1). A second loss is the caller's to handle
    /// (the `Retry` middleware, for one). A refused connection is not retried here.
    ///
    /// A pooled connection that the server closed while it was idle looks alive until a request
    /// is written to it; without this, a server's idle timeout that ends as the next request
    /// leaves would fail that request.
    private func execute(
        _ request: PreparedRequest,
        on client: AsyncHTTPClient.HTTPClient,
        deadline: NIODeadline
    ) async throws -> HTTPClientResponse {
        do {
            return try await client.execute(Self.outgoing(request), deadline: deadline)
        } catch {
            guard request.isRepeatable, Self.closedBeforeResponse(error), !Task.isCancelled,
                NIODeadline.now() < deadline
            else { throw error }
            return try await client.execute(Self.outgoing(request), deadline: deadline)
        }
    }

    /// What `operation` returns, or `HTTPClientError.deadlineExceeded` when `deadline` comes
    /// first: the operation is then cancelled (AsyncHTTPClient closes the connection under a
    /// body read that is cancelled). The operation runs in a task of its own that a timer on
    /// an event loop cancels: one task and one scheduled callback a request, where a task group
    /// racing a `Task.sleep` cost a quarter of the loopback throughput.
    private func beforeDeadline<Value: Sendable>(
        _ deadline: NIODeadline,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard deadline != .distantFuture else { return try await operation() }
        let work = Task { try await operation() }
        let expired = Expiry()
        let timer = client.eventLoopGroup.any().scheduleTask(deadline: deadline) {
            expired.set()
            work.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch let error as RequestError {
            throw error  // the receiver's own failure, as it threw it
        } catch {
            // A cancellation the timer caused, not the caller: the deadline came first. Any
            // other failure is the exchange's own, whenever it came.
            let cancellation = error is CancellationError || (error as? HTTPClientError) == .cancelled
            if cancellation, expired.isSet, !Task.isCancelled { throw HTTPClientError.deadlineExceeded }
            throw error
        }
    }

    /// Reads `body`, undoing `codings`, and hands each decoded window to `receive` as it is
    /// made: at most `limit` bytes (and the same number of coded bytes), in flat memory.
    private static func decode(
        _ body: HTTPClientResponse.Body,
        _ codings: [ContentCoding],
        limit: Int,
        request: RequestSummary,
        into receive: (ByteBuffer) async throws -> Void
    ) async throws {
        let decoder = ContentDecoder(codings: codings, limit: limit)
        var received = 0
        do {
            for try await piece in body {
                received += piece.readableBytes
                guard received <= limit else { throw ContentDecoder.Failure.tooLarge }
                decoder.push(piece)
                while let window = try decoder.next() { try await receive(window) }
            }
            try decoder.finish()
        } catch let failure as ContentDecoder.Failure {
            guard failure != .tooLarge else { throw RequestError.bodyTooLarge(request, limit: limit) }
            throw RequestError.transport(TransportFailure(.undecodableBody, request: request, detail: failure.detail))
        }
    }

    /// Whether `error` says the connection closed (or was reset) under the request, as opposed
    /// to a response that was malformed, too slow or refused.
    private static func closedBeforeResponse(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: error == .remoteConnectionClosed
        case let error as ChannelError:
            switch error {
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: true
            default: false
            }
        case let error as IOError: error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
        default: false
        }
    }

    /// The buffer's bytes as `Data` sharing its storage: no copy per piece of a stream.
    private static func data(_ buffer: ByteBuffer) -> Data {
        var buffer = buffer
        return buffer.readData(length: buffer.readableBytes, byteTransferStrategy: .noCopy) ?? Data()
    }

    private static func outgoing(_ request: PreparedRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.head.method.rawValue)
        outgoing.headers.reserveCapacity(request.head.headerFields.count)
        for (name, value) in request.wireFields {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        } else if let streamed = request.streamedBody {
            outgoing.body = .stream(
                ByteBufferChunks(base: streamed.chunks(for: request.summary)),
                length: streamed.length.map { .known($0) } ?? .unknown
            )
        }
        return outgoing
    }

    /// A streamed body's pieces as the buffers AsyncHTTPClient writes.
    private struct ByteBufferChunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: StreamedBody.Chunks

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: StreamedBody.Chunks.AsyncIterator

            mutating func next() async throws -> ByteBuffer? {
                try await base.next().map { ByteBuffer(data: $0) }
            }
        }
    }

    // MARK: - Conversions

    private static func head(of response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(response.headers.count)
        for (name, value) in response.headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let code = Int(response.status.code)
        let status = HTTPResponse.Status(code: code, reasonPhrase: response.status.reasonPhrase)
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// The error for `error`, which happened on the way to the origin through `proxy`, if any:
    /// failing to reach the proxy, or a tunnel it refused, is a ``TransportFailure/Kind/proxy``
    /// failure naming the proxy (without its credentials).
    static func requestError(for error: any Error, request: PreparedRequest, proxy: ProxyServer?) -> RequestError {
        let failure = requestError(for: error, request: request)
        guard let proxy, case .transport(let transport) = failure else { return failure }
        let defaultPort = request.head.scheme?.lowercased() == "http" ? 80 : 443
        let port = HTTPAuthority(parsing: request.head.authority ?? "")?.port ?? defaultPort
        let target = request.host.contains(":") ? "[\(request.host)]:\(port)" : "\(request.host):\(port)"
        let detail: String
        switch (error as? HTTPClientError, transport.kind) {
        case (.proxyAuthenticationRequired?, _):
            detail = "the proxy \(proxy) asks for credentials it was not given or did not accept (407)"
        case (.invalidProxyResponse?, _):
            detail = "the proxy \(proxy) refused to open a tunnel to \(target)"
        case (.httpProxyHandshakeTimeout?, _):
            return .transport(
                TransportFailure(
                    .timedOut,
                    request: request.summary,
                    detail: "the proxy \(proxy) did not open a tunnel in time",
                    cause: error
                )
            )
        case _ where Self.isConnecting(error, kind: transport.kind):
            // Any failure to connect is the proxy's: the proxy is what the client connects to.
            detail = "could not connect to the proxy \(proxy): \(transport.detail)"
        default:
            return failure
        }
        return .transport(TransportFailure(.proxy, request: request.summary, detail: detail, cause: error))
    }

    /// Whether `error` is a failure to open a connection (not one on an open connection).
    private static func isConnecting(_ error: any Error, kind: TransportFailure.Kind) -> Bool {
        if kind == .connectionRefused || kind == .hostNotFound || error is NIOConnectionError { return true }
        if case .connectTimeout? = error as? HTTPClientError { return true }
        if case .connectTimeout? = error as? ChannelError { return true }
        if let error = error as? IOError { return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode) }
        return false
    }

    static func requestError(for error: any Error, request: PreparedRequest) -> RequestError {
        if let error = error as? RequestError { return error }
        if Task.isCancelled { return .cancelled }
        let summary = request.summary
        func failure(_ kind: TransportFailure.Kind, _ detail: String) -> RequestError {
            .transport(TransportFailure(kind, request: summary, detail: detail, cause: error))
        }
        if error is NIOTooManyBytesError {
            return .bodyTooLarge(summary, limit: request.maxResponseSize)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return .cancelled
            case .connectTimeout, .tlsHandshakeTimeout:
                return failure(.timedOut, "no connection within the connect timeout")
            case .deadlineExceeded, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return .transport(.timedOut(request))
            case .remoteConnectionClosed: return failure(.connectionLost, "the server closed the connection")
            case .invalidURL, .emptyHost, .emptyScheme:
                return .invalidURL(summary.url, reason: "AsyncHTTPClient cannot use it (\(error))")
            default: return failure(.other, "\(error)")
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return failure(.hostNotFound, "\(error)")
            }
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return failure(refused ? .connectionRefused : .other, "\(error)")
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return failure(.connectionRefused, "connection refused")
            case ECONNRESET, EPIPE: return failure(.connectionLost, "connection reset by peer")
            case ETIMEDOUT: return failure(.timedOut, "the connection timed out")
            default: return failure(.other, "\(error)")
            }
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return failure(.timedOut, "no connection within the connect timeout")
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed:
                return failure(.connectionLost, "the connection closed")
            default: return failure(.other, "\(error)")
            }
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return failure(.tls, "\(error)")
        }
        if error is HTTPParserError {
            return failure(.connectionLost, "the response was malformed or cut short (\(error))")
        }
        if error is SocketAddressError {
            return failure(.hostNotFound, "\(error)")
        }
        return failure(.other, "\(error)")
    }
}
