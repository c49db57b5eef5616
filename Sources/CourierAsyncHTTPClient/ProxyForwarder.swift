import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix

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
    /// `HTTPClientError.deadlineExceeded`.
    func execute<Result: Sendable>(
        _ request: PreparedRequest,
        deadline: NIODeadline,
        _ handle: (HTTPClientResponse) async throws -> Result
    ) async throws -> Result {
        let headPromise = group.any().makePromise(of: HTTPResponseHead.self)
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(connectTimeout))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: proxy.host, port: proxy.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHTTPClientHandlers()
                        try pipeline.addHandler(ResponseHeadHandler(head: headPromise, deadline: deadline))
                        return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            headPromise.fail(error)
            throw error
        }
        let connection = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            try await withTaskCancellationHandler {
                for part in try Self.parts(of: request, proxy: proxy) {
                    try await outbound.write(part)
                }
                if let streamed = request.streamedBody, request.body == nil {
                    for try await chunk in streamed.chunks(for: request.summary) {
                        try await outbound.write(.body(.byteBuffer(ByteBuffer(data: chunk))))
                    }
                }
                try await outbound.write(.end(nil))
                if let readTimeout {
                    // From here on, as AsyncHTTPClient does: a long upload is not a stalled read.
                    try await connection.eventLoop.submit {
                        try connection.pipeline.syncOperations.addHandlers(
                            [IdleStateHandler(readTimeout: TimeAmount(readTimeout)), ReadTimeoutHandler()],
                            position: .first
                        )
                    }.get()
                }
                let head = try await headPromise.futureResult.get()
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

    /// The request head in absolute form, with `Host` and the proxy's credentials, and the body
    /// when it is in memory (a streamed one follows).
    private static func parts(of request: PreparedRequest, proxy: ProxyServer) throws -> [HTTPClientRequestPart] {
        let authority = Self.authority(request.head.authority ?? "")
        guard !authority.isEmpty else { throw HTTPClientError.emptyHost }
        var head = HTTPRequestHead(
            version: .http1_1,
            method: NIOHTTP1.HTTPMethod(rawValue: request.head.method.rawValue),
            uri: "http://\(authority)\(request.head.path ?? "/")"
        )
        head.headers.reserveCapacity(request.head.headerFields.count + 3)
        head.headers.add(name: "Host", value: authority)
        for field in request.head.headerFields
        where field.name != .cookie && (proxy.credentials == nil || field.name != .proxyAuthorization) {
            head.headers.add(name: field.name.rawName, value: field.value)
        }
        if let cookies = request.head.headerFields[.cookie] {
            head.headers.add(name: "Cookie", value: cookies)  // one field, as the direct route sends
        }
        if let credentials = proxy.credentials {
            let pair = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
            head.headers.add(name: "Proxy-Authorization", value: "Basic \(pair)")
        }
        var parts: [HTTPClientRequestPart] = []
        if let body = request.body {
            head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            parts = [.head(head), .body(.byteBuffer(ByteBuffer(bytes: body)))]
        } else if let streamed = request.streamedBody {
            if let length = streamed.length {
                head.headers.replaceOrAdd(name: "Content-Length", value: String(length))
            } else {
                head.headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            }
            parts = [.head(head)]
        } else {
            parts = [.head(head)]
        }
        return parts
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
    private var timer: Scheduled<Void>?
    private var received = false

    init(head: EventLoopPromise<HTTPResponseHead>, deadline: NIODeadline) {
        self.head = head
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard deadline != .distantFuture else { return }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            bound.value.handler.fail(HTTPClientError.deadlineExceeded, context: bound.value.context)
            bound.value.context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
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

/// Ends a connection that received nothing for the read timeout, as AsyncHTTPClient does.
private final class ReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        context.fireErrorCaught(HTTPClientError.readTimeout)
        context.close(promise: nil)
    }
}
