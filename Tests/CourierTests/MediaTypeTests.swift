import CourierTestTraits
import Testing

@testable import Courier

@Suite("Media type matching", .loadLimited)
struct MediaTypeTests {
    @Test func matchesIgnoringCaseWhitespaceAndParameters() {
        #expect(MediaType.matches("Application/JSON ; charset=utf-8", anyOf: ["application/json"]))
        #expect(MediaType.matches("\ttext/javascript", anyOf: MediaType.jsonLike))
        #expect(!MediaType.matches("application/jsonx", anyOf: ["application/json"]))
        #expect(!MediaType.matches("text/html; charset=utf-8", anyOf: MediaType.jsonLike))
    }

    @Test func suffixAndWildcardPatterns() {
        #expect(MediaType.matches("application/vnd.api+JSON", anyOf: ["*/*+json"]))
        #expect(!MediaType.matches("+json", anyOf: ["*/*+json"]))
        #expect(!MediaType.matches("application/json+xml", anyOf: ["*/*+json"]))
        #expect(MediaType.matches("text/csv", anyOf: ["text/*"]))
        #expect(!MediaType.matches("text/", anyOf: ["text/*"]))
        #expect(!MediaType.matches("image/png", anyOf: ["text/*"]))
        #expect(MediaType.matches("anything/at-all", anyOf: ["*/*"]))
    }

    @Test func essenceIsLowercasedWithoutParameters() {
        #expect(MediaType.essence(of: " Text/HTML ; charset=UTF-8") == "text/html")
    }
}
