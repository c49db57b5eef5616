import Courier
import CourierServerKit
import CourierTestTraits
import LibraryKit
import Testing

@testable import LibraryServer

@Suite(.loadLimited)
struct RequestParsingTests {
    @Test func readsThePrefixAndThePage() throws {
        #expect(try ListQuery.parse(nil, prefixName: "q") == ListQuery(prefix: "", limit: 100, offset: 0))
        #expect(
            try ListQuery.parse("q=the+great%20g&limit=5&offset=10&x=1", prefixName: "q")
                == ListQuery(prefix: "the great g", limit: 5, offset: 10)
        )
        #expect(try ListQuery.parse("country=C%C3%B4te&q=ignored", prefixName: "country").prefix == "Côte")
        #expect(try ListQuery.parse("q&limit=0", prefixName: "q") == ListQuery(prefix: "", limit: 0, offset: 0))
        #expect(try ListQuery.parse("q=a%2Bb", prefixName: "q").prefix == "a+b")
        #expect(try ListQuery.parse("offset=40239529353154821165401767936", prefixName: "q").offset == .max)
    }

    @Test func listsEveryBadParameter() {
        #expect {
            try ListQuery.parse("limit=1001&offset=-1&q=%E9", prefixName: "q")
        } throws: { error in
            (error as? HTTPProblem)?.details.errors == [
                .init(parameter: "limit", detail: "must be a whole number from 0 to 1000, not '1001'"),
                .init(parameter: "offset", detail: "must be a whole number, 0 or more, not '-1'"),
                .init(parameter: "q", detail: "is not valid percent-encoded UTF-8"),
            ]
        }
        #expect {
            try ListQuery.parse("limit=ten&limit=2", prefixName: "q")
        } throws: { error in
            (error as? HTTPProblem)?.details.detail
                == "limit must be a whole number from 0 to 1000, not 'ten'; limit is given more than once: give it once."
        }
    }
}
