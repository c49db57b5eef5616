import Foundation
import HTTPTypes

/// The transport at the end of a stream's pipeline: it starts the exchange in a task of its
/// own, waits for the head, and returns a response whose body is still arriving (a 2xx) or the
/// start of one that is not (a redirect, an error page), so redirects, the security policy,
/// middleware and status checks work on streams as on any request.
struct StreamSinkTransport: HTTPTransport {
    let base: any HTTPTransport
    /// The longest silence allowed, before the head and between pieces of the body.
    let idleTimeout: Duration?

    /// How much of a body that is not streamed (an error page) is read for its message.
    static let excerptLimit = 64 << 10

    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        let channel = BodyChannel(request: request.summary)
        var request = request
        if var body = request.streamedBody {
            // A long upload before the answer is not an idle exchange.
            let report = body.progress
            body.progress = { progress in
                channel.touch()
                report?(progress)
            }
            request.streamedBody = body
        }
        let base = self.base
        let idleTimeout = self.idleTimeout
        // Owned by the channel, which cancels it whenever reading stops early.
        let producer = Task { [request] in
            let result: Result<Void, RequestError>
            do throws(RequestError) {
                try await Self.produce(request, through: base, into: channel, idleTimeout: idleTimeout)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            channel.finish(result)
        }
        channel.attach(producer)

        let head = try await channel.head()
        var response = RawResponse(head: head, url: request.url)
        if (200..<300).contains(head.status.code) {
            response.stream = StreamedResponse.Body(channel: channel, request: request.summary)
        } else {
            if let idleTimeout { channel.expire(after: idleTimeout) }
            response.body = await Self.excerpt(of: channel)
            channel.cancel(.cancelled)
        }
        return response
    }

    /// Runs the exchange, with a watchdog that ends it when nothing arrives for `idleTimeout`,
    /// and another that ends it at the request's deadline (the stream's `timeout`, body
    /// included).
    private static func produce(
        _ request: PreparedRequest,
        through base: any HTTPTransport,
        into channel: BodyChannel,
        idleTimeout: Duration?
    ) async throws(RequestError) {
        let exchange = { @Sendable () async throws(RequestError) in
            try await base.send(
                request,
                head: { head throws(RequestError) in channel.deliver(head: head) },
                body: { chunk throws(RequestError) in try await channel.push(chunk) }
            )
        }
        let deadline = request.deadline
        guard idleTimeout != nil || deadline != nil else { return try await exchange() }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await exchange() }
                if let idleTimeout {
                    group.addTask { try await watch(channel, idleTimeout: idleTimeout, request: request.summary) }
                }
                if let deadline {
                    group.addTask {
                        guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                        throw RequestError.transport(.timedOut(request))
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        } catch let error as RequestError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// Returns when cancelled; throws ``TransportFailure/Kind/timedOut`` once the channel has
    /// been idle for `idleTimeout` (or is past its expiry).
    private static func watch(
        _ channel: BodyChannel,
        idleTimeout: Duration,
        request: RequestSummary
    ) async throws(RequestError) {
        while true {
            let check = channel.idleCheck(idleTimeout)
            if check.isIdle {
                let detail = "nothing arrived for \(idleTimeout.secondsDescription)"
                throw .transport(TransportFailure(.timedOut, request: request, detail: detail))
            }
            do {
                try await Task.sleep(until: check.next, clock: .continuous)
            } catch {
                return
            }
        }
    }

    /// The start of a body that is not streamed, for the error message: what arrived before
    /// the limit, the end or a failure.
    private static func excerpt(of channel: BodyChannel) async -> Data {
        var excerpt = Data()
        while excerpt.count < excerptLimit {
            guard let chunk = try? await channel.next() else { break }
            excerpt.append(chunk.prefix(excerptLimit - excerpt.count))
        }
        return excerpt
    }
}
