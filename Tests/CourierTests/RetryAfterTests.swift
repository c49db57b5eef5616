import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite("Retry-After", .loadLimited)
struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    let now = Date(timeIntervalSince1970: 784_111_777)

    @Test func delaySeconds() {
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse("-1", now: now) == nil)
        #expect(RetryAfter.parse("soon", now: now) == nil)
    }

    @Test func httpDatesInAllThreeForms() {
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:51:37 GMT", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:50:37 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.parse("Sun Nov  6 08:49:47 1994", now: now) == .seconds(10))
        // A date in the past means now.
        #expect(RetryAfter.parse("Sat, 05 Nov 1994 08:49:37 GMT", now: now) == .zero)
    }
}
