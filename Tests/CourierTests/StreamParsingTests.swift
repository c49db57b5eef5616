import Courier
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Lines and Server-Sent Events read from bodies cut into pieces at every place a network may
/// cut them, through the public API with a transport that hands over exactly those pieces.
@Suite(.loadLimited)
struct StreamParsingTests {
    // MARK: - Server-Sent Events (the WHATWG HTML standard's examples and rules)

    @Test func dataLinesJoinWithLineFeeds() async throws {
        #expect(try await events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test func commentsIDsAndTheUnfinishedLastEvent() async throws {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"
        #expect(
            try await events(stream) == [
                ServerSentEvent(data: "first event", id: "1"),
                ServerSentEvent(data: "second event", id: ""),
            ]
        )
    }

    @Test func emptyDataFieldsStillMakeEvents() async throws {
        #expect(
            try await events("data\n\ndata\ndata\n\ndata:") == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")]
        )
        #expect(
            try await events("data:test\n\ndata: test\n\n") == [
                ServerSentEvent(data: "test"), ServerSentEvent(data: "test"),
            ]
        )
    }

    @Test func eventTypesApplyToOneEvent() async throws {
        let stream = "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\ndata: 113411\n\n"
        #expect(
            try await events(stream) == [
                ServerSentEvent(type: "add", data: "73857293"),
                ServerSentEvent(type: "remove", data: "2153"),
                ServerSentEvent(type: "message", data: "113411"),
            ]
        )
    }

    @Test func oneLeadingByteOrderMarkIsDropped() async throws {
        #expect(try await events("\u{FEFF}data: x\n\n") == [ServerSentEvent(data: "x")])
        // A second one is part of the field name, which is then unknown.
        #expect(try await events("\u{FEFF}\u{FEFF}data: x\n\ndata: y\n\n") == [ServerSentEvent(data: "y")])
    }

    @Test func idsWithNULAndRetriesWithNonDigitsAreIgnored() async throws {
        #expect(try await events("id: 7\n\nid: 8\u{0}\ndata: x\n\n") == [ServerSentEvent(data: "x", id: "7")])
        let reconnects = Seen<EventStreamReconnect>()
        _ = try await events("retry: 1a\nretry: 25\nretry:\ndata: x\n\n", onReconnect: { reconnects.add($0) })
        #expect(reconnects.all.map(\.delay) == [.milliseconds(25)])
    }

    @Test func anIDOfAnEventCutShortIsNotSentOnReconnecting() async throws {
        let reconnects = Seen<EventStreamReconnect>()
        let received = try await events("id: 1\ndata: a\n\nid: 2\ndata: b", onReconnect: { reconnects.add($0) })
        #expect(received == [ServerSentEvent(data: "a", id: "1")])
        // Event 2 never arrived whole: the server must send it again.
        #expect(reconnects.all.map(\.lastEventID) == ["1"])
    }

    @Test func aServerCannotMakeTheClientReconnectInATightLoop() async throws {
        let reconnects = Seen<EventStreamReconnect>()
        _ = try await events("retry: 0\ndata: x\n\n", minDelay: .milliseconds(100), onReconnect: { reconnects.add($0) })
        #expect(reconnects.all.map(\.delay) == [.milliseconds(100)])
        #expect(EventStreamOptions().minReconnectDelay == .milliseconds(100))
    }

    /// A server that ends each connection cleanly after one event does not end the stream as a
    /// 204 would: after `maxAttempts` such connections it fails, saying so (issue 28). A jitter
    /// set past its range after the options were made is clamped where it is used.
    @Test func cleanlyEndedShortConnectionsEndTheStreamWithAFailure() async throws {
        let transport = PiecesTransport(
            pieces: [Data("data: x\n\n".utf8)],
            contentType: "text/event-stream",
            repeating: true
        )
        let client = HTTPClient(transport: transport)
        var options = EventStreamOptions(
            initialReconnectDelay: .milliseconds(1),
            minReconnectDelay: .zero,
            maxAttempts: 3
        )
        options.jitter = .infinity
        var received = 0
        let error = await #expect(throws: RequestError.self) {
            for try await _ in client.events(Endpoint<Data>(host: "example.com", path: "/events"), options: options) {
                received += 1
            }
        }
        #expect(received == 3)
        #expect(error?.transportFailure?.kind == .connectionLost)
        #expect(error?.transportFailure?.detail == "the server ended 3 connections in a row early")
        #expect(error?.transportFailure?.request.url == "https://example.com/events")
    }

    @Test func cancellingABodyReadHalfwayIsNotAnEnd() async throws {
        let response = try await body([Data("first".utf8), Data("second".utf8)])
        var iterator = response.makeAsyncIterator()
        #expect(try await iterator.next() == Data("first".utf8))
        response.cancel()
        do throws(RequestError) {
            let next = try await iterator.next()
            Issue.record("read \(String(describing: next)) after cancel")
        } catch {
            guard case .cancelled = error else {
                Issue.record("expected cancellation, got \(error)")
                return
            }
        }
    }

    @Test func everyLineEndingAndEveryCutGiveTheSameEvents() async throws {
        let expected = [
            ServerSentEvent(type: "a", data: "1\n2", id: "x"),
            ServerSentEvent(data: "3", id: "x"),
            ServerSentEvent(data: "", id: "y"),
        ]
        for ending in ["\n", "\r", "\r\n"] {
            let stream = [
                "event: a", "id: x", "data: 1", "data:2", "", ": note", "data: 3", "", "id: y", "data", "", "",
            ]
            .joined(separator: ending)
            let bytes = Array(stream.utf8)
            for cut in 0...bytes.count {
                let pieces = [Data(bytes[..<cut]), Data(bytes[cut...])]
                #expect(
                    try await events(pieces: pieces) == expected,
                    "ending \(ending.debugDescription), cut at \(cut)"
                )
            }
            #expect(try await events(pieces: bytes.map { Data([$0]) }) == expected)
        }
    }

    @Test func anEventPastTheSizeLimitEndsTheStream() async throws {
        let stream = "data: 12345\ndata: 67890\n\n"
        do throws(RequestError) {
            _ = try await events(stream, maxEventSize: 10)
            Issue.record("an 12-byte event passed a 10-byte limit")
        } catch {
            guard case .stream(let failure) = error, case .eventTooLarge(let limit) = failure.kind else {
                Issue.record("expected eventTooLarge, got \(error)")
                return
            }
            #expect(limit == 10)
            #expect(failure.line == 2)
        }
        #expect(try await events(stream, maxEventSize: 12) == [ServerSentEvent(data: "12345\n67890")])
    }

    // MARK: - Lines

    @Test func linesSurviveAnyCutting() async throws {
        var generator = SeededGenerator()
        let lines = (0..<2_000).map { index in String(repeating: "é", count: index % 37) + "\(index)" }
        let text = lines.enumerated().map { $0.element + ($0.offset % 3 == 0 ? "\r\n" : "\n") }.joined()
        let bytes = Array(text.utf8)
        var pieces: [Data] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 1...200, using: &generator))
            pieces.append(Data(bytes[start..<end]))
            start = end
        }
        var read: [String] = []
        for try await line in try await body(pieces).lines() { read.append(line) }
        #expect(read == lines)
    }

    @Test func aLastLineWithoutEndingIsKeptAndALoneCRIsText() async throws {
        var read: [String] = []
        for try await line in try await body([Data("\u{FEFF}a\rb\nc".utf8)]).lines() { read.append(line) }
        #expect(read == ["a\rb", "c"])
    }

    @Test func aLineLongerThanTheMaximumFailsWithItsNumber() async throws {
        let pieces = [
            Data("short\nshort\n".utf8), Data(repeating: UInt8(ascii: "x"), count: 600),
            Data(repeating: 0x78, count: 600),
        ]
        do throws(RequestError) {
            for try await _ in try await body(pieces).lines(maxLength: 1000) {}
            Issue.record("a 1200-byte line passed a 1000-byte limit")
        } catch {
            guard case .stream(let failure) = error, case .lineTooLong(1000) = failure.kind else {
                Issue.record("expected lineTooLong, got \(error)")
                return
            }
            #expect(failure.line == 3)
        }
    }

    @Test func aBodyCanBeReadOnce() async throws {
        let response = try await body([Data("abc".utf8)])
        #expect(try await response.collect(upTo: 10) == Data("abc".utf8))
        do throws(RequestError) {
            _ = try await response.collect(upTo: 10)
            Issue.record("the body was read twice")
        } catch {
            guard case .stream(let failure) = error, failure.kind == .readTwice else {
                Issue.record("expected readTwice, got \(error)")
                return
            }
        }
    }

    // MARK: - Harness

    private func body(_ pieces: [Data]) async throws(RequestError) -> StreamedResponse.Body {
        let client = HTTPClient(transport: PiecesTransport(pieces: pieces, contentType: "text/plain"))
        return try await client.stream(Endpoint<Data>(host: "example.com", path: "/lines")).body
    }

    private func events(
        _ stream: String,
        maxEventSize: Int = 1 << 20,
        minDelay: Duration = .zero,
        onReconnect: @escaping @Sendable (EventStreamReconnect) -> Void = { _ in }
    ) async throws(RequestError) -> [ServerSentEvent] {
        try await events(
            pieces: [Data(stream.utf8)],
            maxEventSize: maxEventSize,
            minDelay: minDelay,
            onReconnect: onReconnect
        )
    }

    /// The events of one connection that delivers `pieces`; the reconnection gets a 204.
    private func events(
        pieces: [Data],
        maxEventSize: Int = 1 << 20,
        minDelay: Duration = .zero,
        onReconnect: @escaping @Sendable (EventStreamReconnect) -> Void = { _ in }
    ) async throws(RequestError) -> [ServerSentEvent] {
        let client = HTTPClient(transport: PiecesTransport(pieces: pieces, contentType: "text/event-stream"))
        let options = EventStreamOptions(
            initialReconnectDelay: .zero,
            minReconnectDelay: minDelay,
            maxEventSize: maxEventSize
        )
        var received: [ServerSentEvent] = []
        for try await event in client.events(
            Endpoint<Data>(host: "example.com", path: "/events"),
            options: options,
            onReconnect: onReconnect
        ) {
            received.append(event)
        }
        return received
    }
}

/// Answers the first request with a body in exactly the given pieces, and every later one with
/// 204 No Content.
private final class PiecesTransport: HTTPTransport {
    let pieces: [Data]
    let contentType: String
    /// Whether every request gets the pieces (a server that ends each connection cleanly).
    let repeating: Bool
    private let requests = Atomic<Int>(0)

    init(pieces: [Data], contentType: String, repeating: Bool = false) {
        self.pieces = pieces
        self.contentType = contentType
        self.repeating = repeating
    }

    func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        RawResponse(head: HTTPResponse(status: .noContent), url: request.url)
    }

    func send(
        _ request: PreparedRequest,
        head: @escaping @Sendable (HTTPResponse) async throws(RequestError) -> Void,
        body: @escaping @Sendable (Data) async throws(RequestError) -> Void
    ) async throws(RequestError) {
        guard requests.add(1, ordering: .relaxed).oldValue == 0 || repeating else {
            return try await head(HTTPResponse(status: .noContent))
        }
        try await head(HTTPResponse(status: .ok, headerFields: [.contentType: contentType]))
        for piece in pieces { try await body(piece) }
    }
}

/// What a callback saw, in order.
private final class Seen<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func add(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
