import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client takes longer than a deadline to send a whole request, or
/// to take in what the server is sending it.
///
/// The idle timeout sheds a client that sends nothing, but one that sends a byte of its body
/// (or of its next request) every few seconds is never idle, and one that stops reading the
/// response while the server writes it is never idle either (a request is in progress): each
/// would hold its connection — one of ``ConnectionLimits/maximumConnections`` — for as long as
/// it likes. This handler runs two clocks:
///
/// - while the server waits for the client — from when the connection opens, or the server has
///   answered every request received in full, until the next request has arrived in full;
/// - while the connection cannot take more output and the client takes none of it: a client
///   that reads slowly but steadily is not cut off, however long the answer.
///
/// If either runs out, the connection is closed. The time the server takes to answer is not
/// counted, and neither is a pipelined request that waits for the ones before it.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    /// Requests received in full; responses sent in full.
    private var (requests, responses) = (0, 0)
    /// The clock of the request the server waits for.
    private var requestTimer: Scheduled<Void>?
    /// The clock of output the client does not take.
    private var writeTimer: Scheduled<Void>?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    /// True when every request received in full has been answered: what happens next is up to
    /// the client.
    private var waitingForClient: Bool { responses >= requests }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { restartRequestClock(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        restartRequestClock(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopClocks()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopClocks()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            requests += 1
            // Answered already (a response sent before the body was read): the next request's
            // clock starts now. Otherwise the server is working.
            if waitingForClient { restartRequestClock(context: context) } else { stopRequestClock() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responses += 1
            if waitingForClient { restartRequestClock(context: context) }
        }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stopWriteClock()
        } else if writeTimer == nil {
            startWriteClock(context: context, buffered: Self.buffered(context))
        }
        context.fireChannelWritabilityChanged()
    }

    /// Closes the connection after a deadline in which the client took none of the `buffered`
    /// bytes waiting for it; if it took some, the clock starts again.
    private func startWriteClock(context: ChannelHandlerContext, buffered: Int) {
        writeTimer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) { [self] in
            writeTimer = nil
            guard !context.channel.isWritable else { return }
            let now = Self.buffered(context)
            if now < buffered {
                startWriteClock(context: context, buffered: now)
            } else {
                context.close(promise: nil)
            }
        }
    }

    /// Bytes written to the channel and not yet taken by the client's socket.
    private static func buffered(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? 0
    }

    private func stopWriteClock() {
        writeTimer?.cancel()
        writeTimer = nil
    }

    private func restartRequestClock(context: ChannelHandlerContext) {
        stopRequestClock()
        requestTimer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) {
            context.close(promise: nil)
        }
    }

    private func stopRequestClock() {
        requestTimer?.cancel()
        requestTimer = nil
    }

    private func stopClocks() {
        stopRequestClock()
        stopWriteClock()
    }
}

@available(*, unavailable)
extension RequestDeadlineHandler: Sendable {}
