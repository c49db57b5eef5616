import Courier
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Samples that are also tests: they run, and what they promise is checked.
@Suite("Documentation samples that run", .loadLimited)
struct RunningSamplesTests {
    /// CourierTesting's article *Testing without a network*.
    @Test func aStubAnswersTwo503sThenASuccess() async throws {
        let stub = StubTransport()
        let attempts = Mutex(0)
        stub.on(.get, "/health") { _ throws(RequestError) in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            return attempt < 3 ? .status(.serviceUnavailable) : .json(#"{"status": "ok"}"#)
        }
        let client = HTTPClient(
            transport: stub,
            configuration: .init(
                baseURL: URL(string: "https://api.test"),
                middleware: [Retry(maxAttempts: 3, baseDelay: .milliseconds(10))]
            )
        )
        let health = try await client.send(Endpoint<JSONValue>(path: "/health"))
        #expect(health["status"]?.stringValue == "ok")
        #expect(stub.requests.count == 3)
    }

    /// ``UTF8Sequence``'s example.
    @Test func theEuroSignIsThreeBytes() {
        var printed: [Int] = []
        func print(_ value: Int) { printed.append(value) }
        let bytes: [UInt8] = [0xE2, 0x82, 0xAC]  // "€"
        if let sequence = UTF8Sequence(lead: bytes[0]), sequence.second.contains(bytes[1]) {
            print(sequence.length)  // 3: two more bytes in 0x80...0xBF follow the lead
        }
        #expect(printed == [3])
        #expect(UTF8Sequence(lead: 0x41) == nil && UTF8Sequence(lead: 0xC0) == nil && UTF8Sequence(lead: 0xF5) == nil)
        #expect(UTF8Sequence(lead: 0xED)?.second == 0x80...0x9F, "no surrogates")
    }
}
