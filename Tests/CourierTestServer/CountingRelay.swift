import NIOCore
import NIOPosix
import Synchronization

/// A TCP relay on 127.0.0.1 that counts the connections it accepts and passes every byte on
/// to a server, unchanged (TLS and ALPN included): how many connections a client really opened.
///
/// ```swift
/// try await CountingRelay.withRelay(to: server.port) { relay in
///     // send through relay.port
///     #expect(relay.acceptedConnections == 1)
/// }
/// ```
public final class CountingRelay: Sendable {
    /// The port clients connect to.
    public let port: Int
    private let counter: Counter

    private init(port: Int, counter: Counter) {
        self.port = port
        self.counter = counter
    }

    /// How many connections clients have opened so far.
    public var acceptedConnections: Int { counter.value.load(ordering: .relaxed) }

    /// Starts a relay to `targetPort` on 127.0.0.1, runs `body`, and stops the relay.
    public static func withRelay<Result: Sendable>(
        to targetPort: Int,
        _ body: (CountingRelay) async throws -> Result
    ) async throws -> Result {
        let counter = Counter()
        let accepted = Mutex<[any Channel]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                // Runs before the accepted connection is registered: nothing is read from it
                // until the other side is connected and both forwarders are in place.
                counter.add()
                accepted.withLock { $0.append(inbound) }
                return ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: "127.0.0.1", port: targetPort)
                    .flatMapThrowing { outbound in
                        try inbound.pipeline.syncOperations.addHandler(Forwarder(to: outbound))
                        try outbound.pipeline.syncOperations.addHandler(Forwarder(to: inbound))
                    }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let relay = CountingRelay(port: channel.localAddress?.port ?? 0, counter: counter)
        // Stops listening and closes every relayed connection (each closes its other side).
        func stop() async {
            try? await channel.close()
            for connection in accepted.withLock({ $0 }) { try? await connection.close() }
        }
        do {
            let result = try await body(relay)
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }

    /// The count, shared with the channel initializer before the relay exists.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
    }

    /// Writes what one side reads to the other, and closes the other when one closes. Tests send
    /// little through it: writes are not held back for a slow reader, and a half-close closes
    /// both ways.
    private final class Forwarder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let partner: any Channel

        init(to partner: any Channel) {
            self.partner = partner
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            partner.writeAndFlush(Self.unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
