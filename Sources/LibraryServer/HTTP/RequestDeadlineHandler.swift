import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client takes longer than a deadline to send a whole request.
///
/// The idle timeout sheds a client that sends nothing, but one that sends a byte of its body
/// (or of its next request) every few seconds is never idle, and would hold its connection —
/// one of ``ConnectionLimits/maximumConnections`` — for as long as it likes. This handler runs
/// a clock whenever the server waits for the client: from when the connection opens, or the
/// last request has been answered, until the next request has arrived in full. If the clock
/// runs out, the connection is closed. The time the server takes to answer is not counted.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    /// Request heads received, requests received in full, responses sent in full.
    private var (heads, requests, responses) = (0, 0, 0)
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    /// True while a request is arriving, or every request has been answered: the server is
    /// waiting for the client rather than working for it.
    private var waitingForClient: Bool { requests < heads || responses >= requests }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            heads += 1
            // A pipelined request that arrives while the server works on the one before.
            if timer == nil { start(context: context) }
        case .body:
            break
        case .end:
            requests += 1
            // The next request's clock starts now if this one was already answered.
            if waitingForClient { start(context: context) } else { stop() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responses += 1
            if waitingForClient, timer == nil || requests == responses { start(context: context) }
        }
        context.write(data, promise: promise)
    }

    private func start(context: ChannelHandlerContext) {
        stop()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) {
            context.close(promise: nil)
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
    }
}

@available(*, unavailable)
extension RequestDeadlineHandler: Sendable {}
