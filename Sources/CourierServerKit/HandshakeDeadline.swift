import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOSSL
import NIOTLS

/// HTTPS with HTTP/2 and a deadline for the TLS handshake.
///
/// Until the handshake and protocol negotiation finish, Hummingbird's HTTPS channel holds only
/// the TLS handler: no idle timeout or request deadline applies yet, so a client that opens a
/// connection and sends nothing — or a byte of its hello now and then — would hold it, and one
/// of the server's connections, for ever. This closes a connection whose handshake has not
/// completed within the deadline.
struct HandshakeDeadlineChannel: ServerChildChannel {
    let base: HTTP2UpgradeChannel
    let deadline: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP2UpgradeChannel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // On the event loop, before any byte of the handshake has been read.
            let operations = channel.pipeline.syncOperations
            let tls = try operations.handler(type: NIOSSLServerHandler.self)
            try operations.addHandler(HandshakeDeadlineHandler(deadline: deadline), position: .after(tls))
            return value
        }
    }

    func handle(value: HTTP2UpgradeChannel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes the connection unless the TLS handler reports a completed handshake in time, then
/// steps out of the pipeline.
final class HandshakeDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
