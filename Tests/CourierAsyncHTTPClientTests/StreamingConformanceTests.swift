import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Streamed responses, lines, JSON Lines and Server-Sent Events, each case on both transports
/// against the loopback server's streaming routes.
extension TransportConformanceTests.Transport {
    /// The transports that stream.
    static let streaming: [Self] = allCases

    /// Expected to differ: FoundationNetworking keeps delivering to a suspended task, so on
    /// Linux the URLSession transport cannot hold a fast server back, and ends a stream whose
    /// reader falls 16 MiB behind. Endless bodies are paced for it.
    var endless: [URLQueryItem] {
        #if canImport(FoundationNetworking)
        self == .urlSession ? [URLQueryItem(name: "paced", value: "")] : []
        #else
        []
        #endif
    }
}

extension TransportConformanceTests {
    @Test(arguments: Transport.streaming)
    func streamsTheBodyBeforeItEnds(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let name = "held-\(transport.rawValue)"
            let response = try await client.stream(Endpoint<Data>(path: "/stream/held/\(name)"))
            #expect(response.status == 200)
            #expect(response.head.headerFields[.contentType] == "text/plain")
            var iterator = response.body.makeAsyncIterator()
            // The rest is held by the server until released: this piece came while the body was open.
            #expect(try await iterator.next() == Data("first".utf8))
            await server.events.release(name)
            var rest = Data()
            while let chunk = try await iterator.next() { rest.append(chunk) }
            #expect(rest == Data("rest".utf8))
        }
    }

    @Test(arguments: Transport.streaming)
    func leavingTheLoopAbortsTheRequest(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let id = "break-\(transport.rawValue)"
            let response = try await client.stream(
                Endpoint<Data>(path: "/stream/endless", query: [.init(name: "id", value: id)] + transport.endless)
            )
            var received = 0
            for try await chunk in response.body {
                received += chunk.count
                if received > 100_000 { break }
            }
            #expect(received > 100_000)
            try await server.events.waitForDisconnect(id, timeout: .seconds(30))
        }
    }

    @Test(arguments: Transport.streaming)
    func cancellingTheTaskAbortsTheStream(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let id = "cancel-stream-\(transport.rawValue)"
            let (started, signal) = AsyncStream.makeStream(of: Void.self)
            let reading = Task { () async throws(RequestError) -> Int in
                let response = try await client.stream(
                    Endpoint<Data>(path: "/stream/endless", query: [.init(name: "id", value: id)] + transport.endless)
                )
                var received = 0
                for try await chunk in response.body {
                    received += chunk.count
                    signal.yield()
                }
                return received
            }
            for await _ in started { break }
            reading.cancel()
            let result = await reading.result
            guard case .failure(let error) = result, case .cancelled? = error as? RequestError else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            try await server.events.waitForDisconnect(id, timeout: .seconds(30))
        }
    }

    @Test(arguments: Transport.streaming)
    func silenceBeyondTheIdleTimeoutFails(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let name = "silent-\(transport.rawValue)"
            do throws(RequestError) {
                // Hummingbird sends the head with the first piece of the body: here, never.
                let response = try await client.stream(
                    Endpoint<Data>(path: "/stream/silent/\(name)"),
                    idleTimeout: .milliseconds(300)
                )
                for try await _ in response.body {}
                Issue.record("the silent body ended")
            } catch {
                #expect(error.transportFailure?.kind == .timedOut)
            }
            await server.events.release(name)
        }
    }

    @Test(arguments: Transport.streaming)
    func anErrorStatusThrowsWithABoundedExcerpt(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let id = "error-\(transport.rawValue)"
            let endpoint = Endpoint<Data>(
                path: "/stream/endless",
                query: [.init(name: "id", value: id), .init(name: "status", value: "400")] + transport.endless
            )
            do throws(RequestError) {
                _ = try await client.stream(endpoint)
                Issue.record("a 400 was streamed")
            } catch {
                guard case .clientError(let failure) = error else {
                    Issue.record("expected a client error, got \(error)")
                    return
                }
                #expect(failure.status == 400)
                #expect(failure.bodyExcerpt.hasPrefix("aaaa"))
                #expect(failure.bodyExcerpt.utf8.count < 2_000)
            }
            try await server.events.waitForDisconnect(id, timeout: .seconds(30))
        }
    }

    @Test(arguments: Transport.streaming)
    func streamsFollowRedirectsAndRetries(_ transport: Transport) async throws {
        struct Attempts: Decodable { var attempts: Int }
        try await withClient(transport, middleware: [Retry(maxAttempts: 3, baseDelay: .milliseconds(5))]) { client, _ in
            let redirected = try await client.stream(
                Endpoint<Data>(path: "/redirect-to", query: [.init(name: "url", value: "/stream/lines?count=2")])
            )
            #expect(redirected.url.hasSuffix("/stream/lines?count=2"))
            #expect(try await redirected.body.collect(upTo: 1000) == Data("line 1\nline 2\n".utf8))

            let key = "stream-retry-\(transport.rawValue)"
            let retried = try await client.stream(
                Endpoint<Data>(path: "/flaky/\(key)", query: [.init(name: "failures", value: "2")])
            )
            let attempts = try JSONDecoder().decode(Attempts.self, from: try await retried.body.collect(upTo: 1000))
            #expect(attempts.attempts == 3)
        }
    }

    @Test(arguments: Transport.streaming)
    func redirectsToCleartextHostsAreRefused(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            do throws(RequestError) {
                _ = try await client.stream(
                    Endpoint<Data>(
                        path: "/redirect-to",
                        query: [.init(name: "url", value: "http://example.com/stream")]
                    )
                )
                Issue.record("the redirect was followed")
            } catch {
                guard case .insecureConnection(let request, _) = error else {
                    Issue.record("expected a refusal, got \(error)")
                    return
                }
                #expect(request.url == "http://example.com/stream")
            }
        }
    }

    @Test(arguments: Transport.streaming)
    func readsLinesWithEitherEnding(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            for crlf in [false, true] {
                var query = [URLQueryItem(name: "count", value: "3000")]
                if crlf { query.append(URLQueryItem(name: "crlf", value: "")) }
                let response = try await client.stream(Endpoint<Data>(path: "/stream/lines", query: query))
                var lines: [String] = []
                for try await line in response.body.lines() { lines.append(line) }
                #expect(lines == (1...3000).map { "line \($0)" })
            }
        }
    }

    @Test(arguments: Transport.streaming)
    func anEndlessLineEndsWithABoundedError(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let id = "endless-line-\(transport.rawValue)"
            let response = try await client.stream(
                Endpoint<Data>(path: "/stream/endless", query: [.init(name: "id", value: id)] + transport.endless)
            )
            do throws(RequestError) {
                for try await _ in response.body.lines(maxLength: 100_000) {}
                Issue.record("the endless line ended")
            } catch {
                guard case .stream(let failure) = error, case .lineTooLong(let limit) = failure.kind else {
                    Issue.record("expected lineTooLong, got \(error)")
                    return
                }
                #expect(limit == 100_000)
                #expect(failure.line == 1)
                #expect(error.message.contains("longer than 100000 bytes at line 1"))
            }
            try await server.events.waitForDisconnect(id, timeout: .seconds(30))
        }
    }

    @Test(arguments: Transport.streaming)
    func decodesJSONLinesStrictlyOrSkippingBadOnes(_ transport: Transport) async throws {
        struct Item: Decodable, Equatable { var id: Int }
        try await withClient(transport) { client, _ in
            let text = "{\"id\":1}\n\n{\"id\":\"two\"}\r\n{\"id\":3}\nnot json\n{\"id\":5}"
            let endpoint = Endpoint<Data>(
                path: "/stream/text",
                query: [.init(name: "body", value: text), .init(name: "type", value: "application/x-ndjson")]
            )
            let strict = try await client.stream(endpoint).body.jsonLines(of: Item.self)
            var decoded: [Item] = []
            do throws(RequestError) {
                for try await item in strict { decoded.append(item) }
                Issue.record("the bad line was accepted")
            } catch {
                guard case .decoding(let failure) = error else {
                    Issue.record("expected a decoding failure, got \(error)")
                    return
                }
                #expect(failure.codingPath == "line 3, id")
            }
            #expect(decoded == [Item(id: 1)])

            let lossy = try await client.stream(endpoint).body.jsonLines(of: Item.self, skippingInvalidLines: true)
            decoded = []
            for try await item in lossy { decoded.append(item) }
            #expect(decoded == [Item(id: 1), Item(id: 3), Item(id: 5)])
            #expect(lossy.skippedCount == 2)
            #expect(lossy.skipped.map(\.line) == [3, 5])
        }
    }

    /// The test server's `/events/{key}`: `count` events, `perConnection` a connection (then it
    /// drops it), `retry: 1`.
    static func events(_ key: String, count: Int, perConnection: Int) -> Endpoint<Data> {
        Endpoint<Data>(
            path: "/events/\(key)",
            query: [
                .init(name: "count", value: String(count)), .init(name: "per_connection", value: String(perConnection)),
                .init(name: "retry", value: "1"),
            ]
        )
    }

    /// A server that ends every connection after one event no longer gets a reconnection every
    /// `retry`: the waits double while connections keep ending early, the stream gives up after
    /// `maxAttempts` of them, and a connection that lasts starts the count again (issue 28).
    @Test(arguments: Transport.streaming)
    func connectionsThatKeepEndingEarlyBackOffAndGiveUp(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let key = "sse-short-\(transport.rawValue)"
            let endpoint = Self.events(key, count: 100, perConnection: 1)
            let reconnects = Reconnects()
            let options = EventStreamOptions(minReconnectDelay: .milliseconds(1), maxAttempts: 4, jitter: 0)
            var received = 0
            let error = await #expect(throws: RequestError.self) {
                for try await _ in client.events(endpoint, options: options, onReconnect: { reconnects.add($0) }) {
                    received += 1
                }
            }
            #expect(error?.transportFailure?.kind == .connectionLost)
            #expect(reconnects.all.map(\.delay) == [.milliseconds(1), .milliseconds(2), .milliseconds(4)])
            #expect(received >= 3 && received <= 4)

            // Connections that count as healthy (any age, here) reconnect at the server's retry.
            let steady = EventStreamOptions(
                minReconnectDelay: .milliseconds(1),
                maxAttempts: 4,
                stableConnection: .zero,
                jitter: 0
            )
            let again = Reconnects()
            let short = Self.events("\(key)-steady", count: 6, perConnection: 1)
            var all: [ServerSentEvent] = []
            for try await event in client.events(short, options: steady, onReconnect: { again.add($0) }) {
                all.append(event)
            }
            #expect(all.count == 6)
            #expect(again.all.allSatisfy { $0.delay == .milliseconds(1) })
        }
    }

    /// Jitter is a fraction of the wait from 0 to 1, and a stable connection is no shorter than zero.
    @Test func jitterAndStabilityAreClamped() {
        let options = EventStreamOptions(minReconnectDelay: .milliseconds(100), maxReconnectDelay: .seconds(1))
        #expect(options.jitter == 0.5)
        #expect(EventStreamOptions(jitter: .nan).jitter == 0)
        #expect(EventStreamOptions(jitter: 7).jitter == 1)
        #expect(EventStreamOptions(stableConnection: .seconds(-1)).stableConnection == .zero)
    }

    @Test(arguments: Transport.streaming)
    func eventsReconnectFromTheLastIDUntilTheServerSays204(_ transport: Transport) async throws {
        try await withClient(transport) { client, server in
            let key = "sse-\(transport.rawValue)"
            let endpoint = Self.events(key, count: 5, perConnection: 2)
            let reconnects = Reconnects()
            let options = EventStreamOptions(
                initialReconnectDelay: .milliseconds(1),
                minReconnectDelay: .milliseconds(1),
                jitter: 0
            )
            var received: [ServerSentEvent] = []
            for try await event in client.events(endpoint, options: options, onReconnect: { reconnects.add($0) }) {
                received.append(event)
            }
            #expect(received == (1...5).map { ServerSentEvent(data: "event \($0)", id: "\($0)") })
            // Connections dropped mid-stream (ideally two: more when a drop loses events on a
            // loaded machine), one closed cleanly after the last event, then a 204.
            let queries = await server.events.queries(for: "events:\(key)")
            #expect(queries.first == "-")
            #expect(queries.suffix(2) == ["4", "5"] || queries.suffix(2) == ["5", "5"])
            let seen = reconnects.all
            #expect(seen.map(\.connection) == Array(2...queries.count))
            #expect(seen.map(\.lastEventID) == queries.dropFirst().map { $0 == "-" ? "" : $0 })
            // Every connection ended early, so each wait doubles the server's retry.
            #expect(seen.map(\.delay) == seen.indices.map { .milliseconds(1 << $0) })
            #expect(seen.dropLast().allSatisfy { $0.cause?.transportFailure?.kind == .connectionLost })
            #expect(seen.last.map { $0.cause == nil } == true)
        }
    }

    @Test(arguments: Transport.streaming)
    func eventsRefuseAnotherContentType(_ transport: Transport) async throws {
        try await withClient(transport) { client, _ in
            let endpoint = Endpoint<Data>(path: "/stream/text", query: [.init(name: "body", value: "data: x\n\n")])
            do throws(RequestError) {
                for try await _ in client.events(endpoint) {}
                Issue.record("a text/plain body was read as events")
            } catch {
                guard case .unexpectedContentType(let failure, let expected) = error else {
                    Issue.record("expected unexpectedContentType, got \(error)")
                    return
                }
                #expect(failure.contentType == "text/plain")
                #expect(expected == ["text/event-stream"])
            }
        }
    }
}

/// The reconnections a test saw, in order.
private final class Reconnects: Sendable {
    private let seen = Mutex<[EventStreamReconnect]>([])
    func add(_ reconnect: EventStreamReconnect) { seen.withLock { $0.append(reconnect) } }
    var all: [EventStreamReconnect] { seen.withLock { $0 } }
}
