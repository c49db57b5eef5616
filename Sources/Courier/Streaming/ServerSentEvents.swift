import Foundation
import HTTPTypes

/// The events of a Server-Sent Events stream, reconnecting when the connection ends; from
/// ``HTTPClient/events(_:options:onReconnect:)``.
///
/// The stream connects when iteration starts. When the connection breaks or the server closes
/// it, the stream waits the server's `retry` (within ``EventStreamOptions/minReconnectDelay``
/// and ``EventStreamOptions/maxReconnectDelay``) and connects again, sending `Last-Event-ID` so the
/// server can resume after the last event received.
///
/// While connections keep ending early — before ``EventStreamOptions/stableConnection``, with
/// events or without, or failing to connect at all — each wait doubles (the server's `retry`
/// stays the floor), with up to ``EventStreamOptions/jitter`` more at random so that many
/// clients do not return at once; a connection that lasts starts the count again. The stream
/// ends (returns `nil`) when the server answers 204 No Content, and throws when it answers an
/// error status or a type other than `text/event-stream`, when ``EventStreamOptions/maxAttempts``
/// connections in a row end early, or when the task is cancelled.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = ServerSentEvent
    /// What reading throws.
    public typealias Failure = RequestError

    let connect: @Sendable (_ lastEventID: String) async throws(RequestError) -> StreamedResponse
    let options: EventStreamOptions
    let onReconnect: @Sendable (EventStreamReconnect) -> Void

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }

    /// Reads the events, reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let sequence: ServerSentEvents
        private var parser: EventStreamParser
        private var lines: LineReader?
        /// Connections made, the first included.
        private var connections = 0
        /// Connections in a row that ended early (or could not be made).
        private var shortConnections = 0
        /// How long the current connection has been open, once it is.
        private var connectionAge: (@Sendable () -> Duration)?
        /// The last connection's request, for the failure that ends the stream.
        private var lastRequest: RequestSummary?
        private var finished = false

        init(sequence: ServerSentEvents) {
            self.sequence = sequence
            parser = EventStreamParser(maxEventSize: sequence.options.maxEventSize)
        }

        /// The next event, or `nil` when the server has ended the stream for good.
        public mutating func next() async throws(RequestError) -> ServerSentEvent? {
            try await next(isolation: nil)
        }

        /// The next event, or `nil` when the server has ended the stream for good.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RequestError) -> ServerSentEvent?
        {
            while !finished {
                if lines == nil { try await open(isolation: actor) }
                // Taken out while it reads, so that its buffers are never shared (and copied).
                guard var reader = lines.take() else { break }
                let line: Data?
                do {
                    line = try await reader.next(isolation: actor)
                } catch {
                    lines = nil
                    guard Self.isTransient(error) else {
                        finished = true
                        throw error
                    }
                    try await reconnect(after: error, isolation: actor)
                    continue
                }
                guard let line else {
                    lines = nil
                    try await reconnect(after: nil, isolation: actor)
                    continue
                }
                lines = reader
                let event: ServerSentEvent?
                do {
                    event = try parser.parse(line: line)
                } catch {
                    reader.cancel()
                    finished = true
                    let limit = sequence.options.maxEventSize
                    throw .stream(
                        StreamFailure(.eventTooLarge(limit: limit), request: reader.request, line: reader.lineNumber)
                    )
                }
                if let event { return event }
            }
            return nil
        }

        /// Connects, after a wait when this is a reconnection; sets ``lines``, or ``finished``
        /// on a 204.
        private mutating func open(isolation actor: isolated (any Actor)?) async throws(RequestError) {
            while true {
                connections += 1
                connectionAge = nil
                do {
                    let response = try await sequence.connect(parser.lastEventID)
                    connectionAge = Self.stopwatch()
                    lastRequest = response.body.request
                    if response.status == 204 {
                        response.body.cancel()
                        finished = true
                        return
                    }
                    lines = LineReader(body: response.body, endings: .any, maxLength: sequence.options.maxLineLength)
                    return
                } catch {
                    guard Self.isTransient(error) else {
                        finished = true
                        throw error
                    }
                    try await reconnect(after: error, isolation: actor)
                }
            }
        }

        /// Counts a connection that ended early, gives up after too many in a row, reports the
        /// reconnection and waits before it.
        private mutating func reconnect(
            after cause: RequestError?,
            isolation actor: isolated (any Actor)?
        ) async throws(RequestError) {
            parser.discardPartialEvent()
            let options = sequence.options
            if let age = connectionAge?(), age >= options.stableConnection {
                shortConnections = 0
            } else {
                shortConnections += 1
            }
            connectionAge = nil
            guard shortConnections < options.maxAttempts else {
                finished = true
                if let cause { throw cause }
                // The server closed each one cleanly: not an end it asked for (that is a 204).
                throw .transport(
                    TransportFailure(
                        .connectionLost,
                        request: lastRequest ?? RequestSummary(method: "GET", url: ""),
                        detail: "the server ended \(shortConnections) connections in a row early"
                    )
                )
            }
            let retry = parser.retryMilliseconds.map { Duration.milliseconds($0) } ?? options.initialReconnectDelay
            var delay = Self.delay(
                retry: Swift.max(retry, options.minReconnectDelay),
                fruitless: shortConnections,
                maximum: options.maxReconnectDelay
            )
            // Clamped here too: the option is a `var`, set after the initializer's clamp.
            let jitter = options.jitter.isFinite ? Swift.min(Swift.max(0, options.jitter), 1) : 0
            if shortConnections > 1, jitter > 0 {
                // More at random, never less: the server's retry and the doubling stay the floor.
                let extra = delay * Double.random(in: 0...jitter)
                delay = Swift.min(delay + extra, options.maxReconnectDelay)
            }
            sequence.onReconnect(
                EventStreamReconnect(
                    connection: connections + 1,
                    lastEventID: parser.lastEventID,
                    delay: delay,
                    cause: cause
                )
            )
            do {
                try await sequence.options.clock.sleep(for: delay)
            } catch {
                finished = true
                throw .cancelled
            }
            if Task.isCancelled {
                finished = true
                throw .cancelled
            }
        }

        /// A function that tells how long ago it was made, in real time.
        private static func stopwatch() -> @Sendable () -> Duration {
            let start = ContinuousClock.now
            return { ContinuousClock.now - start }
        }

        /// The server's reconnection time, doubled for each connection in a row that ended early
        /// after the first, at most `maximum`.
        static func delay(retry: Duration, fruitless: Int, maximum: Duration) -> Duration {
            var delay = Swift.min(retry, maximum)
            for _ in 1..<Swift.max(fruitless, 1) {
                guard delay < maximum / 2 else { return maximum }
                delay *= 2
            }
            return delay
        }

        /// Whether a failure is one to reconnect after: the connection, not the server's answer.
        static func isTransient(_ error: RequestError) -> Bool {
            guard case .transport(let failure) = error else { return false }
            return [.connectionRefused, .connectionLost, .timedOut].contains(failure.kind)
        }
    }
}

/// How ``ServerSentEvents`` reads and reconnects.
public struct EventStreamOptions: Sendable {
    /// The wait before reconnecting until the server sets one with `retry`.
    public var initialReconnectDelay: Duration
    /// The shortest wait before reconnecting, whatever the server asks: a server that answers
    /// `retry: 0` and closes cannot make the client reconnect in a tight loop.
    public var minReconnectDelay: Duration
    /// The longest wait before reconnecting, whatever the server asks.
    public var maxReconnectDelay: Duration
    /// How many connections in a row may end early (before ``stableConnection``, or fail to be
    /// made) before the stream gives up.
    public var maxAttempts: Int
    /// How long a connection must stay open (in real time, whatever ``clock`` is) to count as
    /// healthy: after it ends, the wait starts again from the server's `retry` instead of
    /// doubling.
    public var stableConnection: Duration
    /// The most added at random to a doubled wait, as a fraction of it (0.5: up to half as
    /// long again); 0 for none.
    public var jitter: Double
    /// The longest silence before a connection counts as broken (servers send comments to keep
    /// a quiet stream alive); `nil` for none.
    public var idleTimeout: Duration?
    /// The longest line, in bytes.
    public var maxLineLength: Int
    /// The largest `data` of one event, in bytes.
    public var maxEventSize: Int
    /// The clock reconnection waits are measured on; tests pass one they control.
    public var clock: any Clock<Duration>

    /// Creates options; the defaults follow what browsers do, bounded.
    public init(
        initialReconnectDelay: Duration = .seconds(3),
        minReconnectDelay: Duration = .milliseconds(100),
        maxReconnectDelay: Duration = .seconds(60),
        maxAttempts: Int = 10,
        stableConnection: Duration = .seconds(30),
        jitter: Double = 0.5,
        idleTimeout: Duration? = .seconds(300),
        maxLineLength: Int = 1 << 20,
        maxEventSize: Int = 4 << 20,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.initialReconnectDelay = initialReconnectDelay
        self.minReconnectDelay = minReconnectDelay
        self.maxReconnectDelay = max(minReconnectDelay, maxReconnectDelay)
        self.maxAttempts = max(1, maxAttempts)
        self.stableConnection = max(.zero, stableConnection)
        self.jitter = jitter.isFinite ? min(max(0, jitter), 1) : 0
        self.idleTimeout = idleTimeout
        self.maxLineLength = maxLineLength
        self.maxEventSize = maxEventSize
        self.clock = clock
    }
}

/// A reconnection of ``ServerSentEvents``, reported before its wait.
public struct EventStreamReconnect: Sendable {
    /// The number of the connection about to be made (2 for the first reconnection).
    public var connection: Int
    /// The `Last-Event-ID` it will send; empty for none.
    public var lastEventID: String
    /// How long it waits first.
    public var delay: Duration
    /// Why the last connection ended; `nil` when the server closed it cleanly.
    public var cause: RequestError?
}

extension HTTPClient {
    /// The endpoint's Server-Sent Events, reconnecting as browsers' `EventSource` does.
    ///
    /// ```swift
    /// let events = client.events(Endpoint<Data>(url: feedURL)) { reconnect in
    ///     print("reconnecting after \(reconnect.delay)")
    /// }
    /// for try await event in events where event.type == "price" {
    ///     show(event.data)
    /// }
    /// ```
    ///
    /// Each connection is a ``stream(_:timeout:idleTimeout:)`` of the endpoint with
    /// `Accept: text/event-stream`, `Cache-Control: no-cache` and, when reconnecting after an
    /// event with an ID, `Last-Event-ID`: middleware, the security policy and redirects apply.
    ///
    /// - Parameters:
    ///   - endpoint: The event stream's endpoint.
    ///   - options: Reconnection waits and limits.
    ///   - onReconnect: Called before each reconnection.
    public func events<Value>(
        _ endpoint: Endpoint<Value>,
        options: EventStreamOptions = EventStreamOptions(),
        onReconnect: @escaping @Sendable (EventStreamReconnect) -> Void = { _ in }
    ) -> ServerSentEvents {
        let client = self
        return ServerSentEvents(
            connect: { lastEventID throws(RequestError) in
                var endpoint = endpoint
                endpoint.headers[.accept] = "text/event-stream"
                endpoint.headers[.cacheControl] = "no-cache"
                endpoint.headers[.lastEventID] = lastEventID.isEmpty ? nil : lastEventID
                let response = try await client.stream(endpoint, idleTimeout: options.idleTimeout)
                let type = response.head.headerFields[.contentType] ?? ""
                if response.status != 204, !MediaType.matches(type, anyOf: ["text/event-stream"]) {
                    response.body.cancel()
                    let head = RawResponse(head: response.head, url: response.url)
                    throw .unexpectedContentType(
                        HTTPFailure(head, request: response.body.request),
                        expected: ["text/event-stream"]
                    )
                }
                return response
            },
            options: options,
            onReconnect: onReconnect
        )
    }
}
