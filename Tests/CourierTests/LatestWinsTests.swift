import Courier
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Latest wins", .loadLimited)
struct LatestWinsTests {
    @Test func aNewerSearchCancelsTheOneInFlight() async throws {
        let stub = StubTransport()
        stub.on(.get, "/search") { request throws(RequestError) in
            // The first search is slow, so only cancellation can end it early.
            let slow = request.head.path?.hasSuffix("term=sw") == true
            return StubResponse.json(#"{"term": "\#(slow ? "sw" : "swift")"}"#).delayed(
                by: slow ? .seconds(30) : .milliseconds(10)
            )
        }
        let client = HTTPClient(transport: stub)
        let latest = LatestWins<JSONValue>()
        func search(_ term: String) async throws(RequestError) -> JSONValue {
            try await latest.run { () async throws(RequestError) -> JSONValue in
                try await client.send(
                    Endpoint<JSONValue>(host: "t", path: "/search", query: [URLQueryItem(name: "term", value: term)])
                )
            }
        }
        let first = Task { () async throws(RequestError) -> JSONValue in try await search("sw") }
        while stub.requests.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        let second = try await search("swift")
        #expect(second["term"]?.stringValue == "swift")
        let firstResult = await first.result
        #expect(firstResult.endedCancelled, "the superseded search delivered \(firstResult)")
    }

    @Test func aSupersededResultIsNeverDeliveredEvenIfItArrived() async throws {
        let latest = LatestWins<Int>()
        let gate = AsyncStream<Void>.makeStream()
        let started = AsyncStream<Void>.makeStream()
        // The first operation ignores cancellation and finishes after the second started.
        let first = Task { () async throws(RequestError) -> Int in
            try await latest.run { () async throws(RequestError) -> Int in
                started.continuation.yield()
                var iterator = gate.stream.makeAsyncIterator()
                await iterator.next()
                return 1
            }
        }
        var startedIterator = started.stream.makeAsyncIterator()
        await startedIterator.next()
        let second = Task { () async throws(RequestError) -> Int in
            try await latest.run { () async throws(RequestError) -> Int in 2 }
        }
        #expect(try await second.value == 2)
        gate.continuation.yield()
        let result = await first.result
        #expect(result.endedCancelled, "the superseded operation delivered \(result)")
    }

    @Test func cancelStopsTheOperationInFlight() async throws {
        let latest = LatestWins<Int>()
        let started = AsyncStream<Void>.makeStream()
        let task = Task { () async throws(RequestError) -> Int in
            try await latest.run { () async throws(RequestError) -> Int in
                started.continuation.yield()
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    throw .cancelled
                }
                return 1
            }
        }
        var startedIterator = started.stream.makeAsyncIterator()
        await startedIterator.next()
        await latest.cancel()
        let result = await task.result
        #expect(result.endedCancelled, "got \(result)")
    }

    @Test func errorsOfTheLatestOperationAreDelivered() async throws {
        let latest = LatestWins<Int>()
        let error = await #expect(throws: RequestError.self) {
            try await latest.run { () async throws(RequestError) -> Int in throw .invalidURL("x", reason: "bad") }
        }
        #expect(error?.shortDescription == "invalid_url")
    }
}

@Suite("Latest wins, numbered", .loadLimited)
struct LatestWinsSequenceTests {
    @Test func aLowerNumberArrivingLateIsDroppedAndCancelsNothing() async throws {
        let latest = LatestWins<Int>()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (started, starting) = AsyncStream<Void>.makeStream()
        // Number 5 waits for the gate: number 4, arriving after it, must not cancel it.
        let newest = Task { () async throws(RequestError) -> Int in
            try await latest.run(sequence: 5) { () async throws(RequestError) -> Int in
                starting.yield()
                for await _ in gate { break }
                return 5
            }
        }
        for await _ in started { break }
        var ranLate = false
        do throws(RequestError) {
            _ = try await latest.run(sequence: 4) { () async throws(RequestError) -> Int in 4 }
            ranLate = true
        } catch {
            guard case .cancelled = error else {
                Issue.record("expected cancelled, got \(error)")
                return
            }
        }
        #expect(!ranLate, "a search numbered lower than one already started is dropped")
        do throws(RequestError) {
            _ = try await latest.run(sequence: 5) { () async throws(RequestError) -> Int in 55 }
            Issue.record("the same number twice runs once")
        } catch {
            guard case .cancelled = error else {
                Issue.record("expected cancelled, got \(error)")
                return
            }
        }
        open.yield()
        #expect(try await newest.value == 5)
        // A higher number runs and supersedes as usual.
        #expect(try await latest.run(sequence: 6) { () async throws(RequestError) -> Int in 6 } == 6)
    }
}
