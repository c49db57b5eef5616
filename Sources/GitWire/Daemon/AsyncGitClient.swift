import Foundation
import NIOCore
import NIOPosix

/// Lists a repository's refs over `git://` on SwiftNIO, as the chapter's second client did with
/// a stream delegate: each ref is handed over as soon as its packet has arrived.
///
/// ```swift
/// for try await ref in AsyncGitClient().refs(try GitURL("git://127.0.0.1/project.git")) {
///     print(ref.objectID, ref.name)
/// }
/// ```
public struct AsyncGitClient: Sendable {
    /// The longest the whole conversation may take, connecting included (at most a year).
    public var timeout: Duration
    /// How many refs and bytes the server may send.
    public var limits: GitLimits

    /// A client that gives up after `timeout`, or when the server sends more than `limits`.
    public init(timeout: Duration = .seconds(10), limits: GitLimits = .default) {
        self.timeout = timeout
        self.limits = limits
    }

    /// The refs of `url` as they arrive.
    ///
    /// The stream holds the refs its consumer has not taken yet; the client's
    /// ``GitLimits/maximumRefs`` bounds them.
    public func refs(
        _ url: GitURL,
        protocolVersion: Int = 0,
        heads: Bool = false,
        tags: Bool = false,
        symref: Bool = false
    ) -> AdvertisedRefs {
        AdvertisedRefs(address: url.description, limits: limits) { onRef async throws(GitWireError) in
            try await lsRemote(
                url,
                protocolVersion: protocolVersion,
                heads: heads,
                tags: tags,
                symref: symref,
                onRef: onRef
            )
        }
    }

    /// The whole advertisement of `url`; `onRef` sees each ref as it arrives.
    ///
    /// - Throws: ``GitWireError``: ``GitWireError/timedOut(_:after:)`` after `timeout`,
    ///   ``GitWireError/limitExceeded(_:reason:)`` when the server sends more than `limits`.
    public func lsRemote(
        _ url: GitURL,
        protocolVersion: Int = 0,
        heads: Bool = false,
        tags: Bool = false,
        symref: Bool = false,
        onRef: @escaping @Sendable (AdvertisedRef) -> Void = { _ in }
    ) async throws(GitWireError) -> RefAdvertisement {
        let address = url.description
        let timeout = min(timeout, Self.longestTimeout)
        do {
            return try await withThrowingTaskGroup(of: RefAdvertisement?.self) { group in
                group.addTask {
                    try await converse(
                        url,
                        protocolVersion,
                        timeout: timeout,
                        heads: heads,
                        tags: tags,
                        symref: symref,
                        onRef: onRef
                    )
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let advertisement = first else {
                    throw GitWireError.timedOut(address, after: timeout)
                }
                return advertisement
            }
        } catch let error as GitWireError {
            throw error
        } catch let error as PktLineError {
            throw .malformed(address, reason: error.description)
        } catch {
            throw Self.explain(error, address: address, timeout: timeout)
        }
    }

    /// A year: longer timeouts are taken as this one.
    private static let longestTimeout = Duration.seconds(365 * 24 * 3600)

    private func converse(
        _ url: GitURL,
        _ protocolVersion: Int,
        timeout: Duration,
        heads: Bool,
        tags: Bool,
        symref: Bool,
        onRef: @Sendable (AdvertisedRef) -> Void
    ) async throws -> RefAdvertisement {
        let address = url.description
        let request = try url.uploadPackRequest(protocolVersion: protocolVersion)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(timeout))
            .connect(host: url.host, port: url.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: request))
            var decoder = PktLineDecoder()
            var reader = AdvertisementReader(address: address, limits: limits)
            var sentLsRefs = false
            var received = 0
            // NIO's reads are at most 64 KiB and the decoder is drained before the next one, so
            // it never holds more than that and one incomplete packet (at most 65520 bytes).
            for try await buffer in inbound {
                received += buffer.readableBytes
                try limits.check(bytes: received, address: address)
                decoder.append(buffer.readableBytesView)
                while let packet = try decoder.next() {
                    for ref in try reader.read(packet) { onRef(ref) }
                    if reader.state == .awaitingRefs, !sentLsRefs {
                        sentLsRefs = true
                        let lsRefs = try reader.lsRefsRequest(heads: heads, tags: tags, symref: symref)
                        try await outbound.write(ByteBuffer(bytes: lsRefs))
                    }
                    if reader.state == .finished {
                        try? await outbound.write(ByteBuffer(string: "0000"))
                        return reader.advertisement
                    }
                }
            }
            throw GitWireError.connectionLost(address)
        }
    }

    private static func explain(_ error: any Error, address: String, timeout: Duration) -> GitWireError {
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .hostNotFound(address)
            }
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return refused ? .connectionRefused(address) : .connectionLost(address)
        }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return .connectionRefused(address) }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return .timedOut(address, after: timeout)
        }
        if error is SocketAddressError { return .hostNotFound(address) }
        return .connectionLost(address)
    }
}
