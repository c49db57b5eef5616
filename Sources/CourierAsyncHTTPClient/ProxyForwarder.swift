import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import Synchronization

/// Sends plain `http` requests through an HTTP proxy as RFC 9112 §3.2.2 says a client does:
/// the request line names the whole URL (`GET http://host/path HTTP/1.1`) and the proxy
/// connects to the origin.
///
/// AsyncHTTPClient would tunnel them with `CONNECT` instead, which most proxies allow only to
/// port 443 (Squid's and Debian's tinyproxy's default configurations refuse any other). `https`
/// requests do go through AsyncHTTPClient's tunnel: there the TLS handshake must be with the
/// origin, not the proxy.
///
/// Each request has a connection of its own, closed when its response ends: cleartext through a
/// proxy is the rare case, and a connection per request keeps this small.
struct ProxyForwarder: Sendable {
    let proxy: ProxyServer
    let group: any EventLoopGroup
    let connectTimeout: Duration
    let readTimeout: Duration?

    /// Sends `request` through the proxy and hands its response to `handle`, whose body reads
    /// from the connection as `handle` asks for it. The connection closes when `handle`
    /// returns or throws, and at `deadline`, when the exchange fails with
    /// `HTTPClientError.deadlineExceeded` whatever it was doing (connecting, sending, reading).
    func execute<Result: Sendable>(
        _ request: PreparedRequest,
        deadline: NIODeadline,
        _ handle: (HTTPClientResponse) async throws -> Result
    ) async throws -> Result {
        let (head, body) = try Self.parts(of: request, proxy: proxy)
        let expiry = Expiry()
        do {
            return try await exchange(request, head: head, body: body, deadline: deadline, expiry: expiry, handle)
        } catch {
            if expiry.isSet, !Task.isCancelled { throw HTTPClientError.deadlineExceeded }
            throw error
        }
    }

    private func exchange<Result: Sendable>(
        _ request: PreparedRequest,
        head: HTTPRequestHead,
        body: Data?,
        deadline: NIODeadline,
        expiry: Expiry,
        _ handle: (HTTPClientResponse) async throws -> Result
    ) async throws -> Result {
        let readTimeout = self.readTimeout
        // No longer than the time left: a proxy that does not answer ends at the deadline.
        let timeLeft = deadline == .distantFuture ? connectTimeout : .nanoseconds((deadline - .now()).nanoseconds)
        let (channel, responseHead) = try await ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(Swift.max(.zero, Swift.min(connectTimeout, timeLeft))))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: proxy.host, port: proxy.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    // A promise for each connection attempt: a losing one cannot fail the winner's.
                    let promise = channel.eventLoop.makePromise(of: HTTPResponseHead.self)
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(ReadTimeoutHandler(timeout: readTimeout))
                    try pipeline.addHandler(ResponseHeadHandler(head: promise, deadline: deadline, expiry: expiry))
                    let wrapped = try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel
                    )
                    return (wrapped, promise.futureResult)
                }
            }
        let connection = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            try await withTaskCancellationHandler {
                do {
                    try await outbound.write(.head(head))
                    if let body {
                        try await outbound.write(.body(.byteBuffer(ByteBuffer(data: body))))
                    } else if let streamed = request.streamedBody {
                        try await Self.write(streamed, of: request, to: outbound)
                    }
                    try await outbound.write(.end(nil))
                } catch  where error is ChannelError || error is IOError {
                    // A proxy may answer before it has read everything (a 407, a 413) and
                    // close: that answer is the response. Otherwise the write's failure is.
                    // (The connection is closed, so the head has come or never will.)
                    guard (try? await responseHead.get()) != nil else { throw error }
                }
                let head = try await responseHead.get()
                let response = HTTPClientResponse(
                    version: head.version,
                    status: head.status,
                    headers: head.headers,
                    body: .stream(Body(parts: inbound))
                )
                return try await handle(response)
            } onCancel: {
                connection.close(promise: nil)
            }
        }
    }

    /// Writes a streamed body, which must have the length it declares, if it declares one:
    /// more would be read by the proxy as another request, less would leave it waiting.
    private static func write(
        _ streamed: StreamedBody,
        of request: PreparedRequest,
        to outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    ) async throws {
        var written = 0
        for try await chunk in streamed.chunks(for: request.summary) {
            written += chunk.count
            if let length = streamed.length, written > length { throw HTTPClientError.bodyLengthMismatch }
            try await outbound.write(.body(.byteBuffer(ByteBuffer(data: chunk))))
        }
        if let length = streamed.length, written != length { throw HTTPClientError.bodyLengthMismatch }
    }

    /// The request head in absolute form, framed here (`Host`, `Content-Length` or chunked,
    /// whatever the request's own fields said), with the proxy's credentials; and the body
    /// when it is in memory (a streamed one follows).
    private static func parts(of request: PreparedRequest, proxy: ProxyServer) throws -> (HTTPRequestHead, Data?) {
        let authority = Self.authority(request.head.authority ?? "")
        guard !authority.isEmpty else { throw HTTPClientError.emptyHost }
        let method = NIOHTTP1.HTTPMethod(rawValue: request.head.method.rawValue)
        var head = HTTPRequestHead(
            version: .http1_1,
            method: method,
            uri: "http://\(authority)\(request.head.path ?? "/")"
        )
        head.headers.reserveCapacity(request.head.headerFields.count + 3)
        // The proxy takes the host from the request line (RFC 9112 §3.2.2): one Host, that one.
        head.headers.add(name: "Host", value: authority)
        let framing: Set<String> = ["content-length", "transfer-encoding", "host"]
        for (name, value) in request.wireFields
        where !framing.contains(name.lowercased())
            && (proxy.credentials == nil || name.lowercased() != "proxy-authorization")
        {
            head.headers.add(name: name, value: value)
        }
        if let credentials = proxy.credentials {
            let pair = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
            head.headers.add(name: "Proxy-Authorization", value: "Basic \(pair)")
        }
        let hasBody = request.body.map { !$0.isEmpty } ?? (request.streamedBody != nil)
        if method == .TRACE, hasBody { throw HTTPClientError.traceRequestWithBody }
        if let inMemory = request.body {
            head.headers.add(name: "Content-Length", value: String(inMemory.count))
        } else if let streamed = request.streamedBody {
            if let length = streamed.length {
                head.headers.add(name: "Content-Length", value: String(length))
            } else {
                head.headers.add(name: "Transfer-Encoding", value: "chunked")
            }
        } else if ![.GET, .HEAD, .TRACE, .CONNECT, .OPTIONS, .DELETE].contains(method) {
            head.headers.add(name: "Content-Length", value: "0")
        }
        return (head, request.body)
    }

    /// `host[:port]` without the user information an authority may carry.
    private static func authority(_ authority: String) -> String {
        guard let at = authority.lastIndex(of: "@") else { return authority }
        return String(authority[authority.index(after: at)...])
    }

    /// The response body: the parts after the head, ending at the response's end. A connection
    /// that ends before then is an error, never a shorter body.
    private struct Body: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let parts: NIOAsyncChannelInboundStream<HTTPClientResponsePart>

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(parts: parts.makeAsyncIterator()) }

        struct AsyncIterator: AsyncIteratorProtocol {
            var parts: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
            var ended = false

            mutating func next() async throws -> ByteBuffer? {
                guard !ended else { return nil }
                while let part = try await parts.next() {
                    switch part {
                    case .body(let buffer): return buffer
                    case .end:
                        ended = true
                        return nil
                    case .head: continue
                    }
                }
                try Task.checkCancellation()
                throw HTTPClientError.remoteConnectionClosed
            }
        }
    }
}

/// Takes the response head off the stream of parts into a promise, skipping interim (1xx)
/// responses, and ends the exchange at its deadline.
private final class ResponseHeadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    private let head: EventLoopPromise<HTTPResponseHead>
    private let deadline: NIODeadline
    private let expiry: Expiry
    private var timer: Scheduled<Void>?
    private var received = false

    init(head: EventLoopPromise<HTTPResponseHead>, deadline: NIODeadline, expiry: Expiry) {
        self.head = head
        self.deadline = deadline
        self.expiry = expiry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard deadline != .distantFuture else { return }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let expiry = self.expiry
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            expiry.set()
            bound.value.handler.fail(HTTPClientError.deadlineExceeded, context: bound.value.context)
            bound.value.context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        // A connection that never opened is removed without becoming inactive.
        if !received { head.fail(HTTPClientError.remoteConnectionClosed) }
        received = true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head(let responseHead) = part, !received {
            // 101 ends the exchange as HTTP/1.1; other 1xx precede the response.
            guard responseHead.status.code >= 200 || responseHead.status == .switchingProtocols else { return }
            received = true
            head.succeed(responseHead)
            return
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        if !received { head.fail(error) }
        received = true
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        if !received { head.fail(HTTPClientError.remoteConnectionClosed) }
        received = true
        context.fireChannelInactive()
    }
}

/// Ends a connection that receives nothing for the read timeout once the request has been
/// sent (as AsyncHTTPClient does: a long upload is not a stalled read).
private final class ReadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart

    private let timeout: Duration?
    private var timer: Scheduled<Void>?
    private var armed = false

    init(timeout: Duration?) {
        self.timeout = timeout
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            armed = true
            schedule(context)
        }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if armed { schedule(context) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    private func schedule(_ context: ChannelHandlerContext) {
        guard let timeout else { return }
        timer?.cancel()
        let context = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.value.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            context.value.fireErrorCaught(HTTPClientError.readTimeout)
            context.value.close(promise: nil)
        }
    }
}

/// Whether a deadline's timer has fired; set on an event loop, read by the request's task.
final class Expiry: Sendable {
    private let fired = Mutex(false)
    var isSet: Bool { fired.withLock { $0 } }
    func set() { fired.withLock { $0 = true } }
}
