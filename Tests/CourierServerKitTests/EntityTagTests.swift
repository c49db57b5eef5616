import CourierTestTraits
import Testing

@testable import CourierServerKit

/// `If-None-Match`, as every Courier server reads it (RFC 9110 §13.1.2).
@Suite(.loadLimited)
struct EntityTagTests {
    @Test func ifNoneMatchComparesWeaklyAndHonoursLists() {
        let tag = #""abc-0-1-1""#
        #expect(EntityTag.ifNoneMatch(tag, matches: tag))
        #expect(EntityTag.ifNoneMatch(#"W/"abc-0-1-1""#, matches: tag))
        #expect(EntityTag.ifNoneMatch(#""x", "y,z" , W/"abc-0-1-1""#, matches: tag))
        #expect(EntityTag.ifNoneMatch("*", matches: tag))
        #expect(!EntityTag.ifNoneMatch(#""abc-0-1-2""#, matches: tag))
        #expect(!EntityTag.ifNoneMatch(#""y,"abc-0-1-1""#, matches: tag))
        #expect(!EntityTag.ifNoneMatch("abc-0-1-1", matches: tag))
        #expect(!EntityTag.ifNoneMatch("", matches: tag))
    }
}
