import Courier
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@Suite("JSONValue", .loadLimited)
struct JSONValueTests {
    let json: JSONValue

    init() throws {
        json = try JSONValue(
            parsing: Data(
                #"{"resultCount": 2, "results": [{"title": "Dune", "price": 9.99, "id": 9007199254740993, "tags": null}, {"title": "Emma", "free": true}]}"#
                    .utf8
            )
        )
    }

    @Test func subscriptsAreSafe() {
        #expect(json["resultCount"]?.intValue == 2)
        #expect(json["results"]?[1]?["free"]?.boolValue == true)
        #expect(json["results"]?[5] == nil)
        #expect(json["results"]?[-1]?["title"]?.stringValue == "Emma")
        #expect(json["missing"] == nil)
        #expect(json["resultCount"]?["nested"] == nil)
        #expect(json[0] == nil)
    }

    @Test func pathLookup() {
        #expect(json[path: "results.0.title"]?.stringValue == "Dune")
        #expect(json[path: "results[1].title"]?.stringValue == "Emma")
        #expect(json[path: "results.0.price"]?.doubleValue == 9.99)
        #expect(json[path: "results.0.tags"]?.isNull == true)
        #expect(json[path: "results.2.title"] == nil)
        #expect(json[path: "results..title"] == nil)
        #expect(json[path: "results[x]"] == nil)
        #expect(JSONValue.isValidPath("a.b[0].c"))
        #expect(!JSONValue.isValidPath("a.["))
        #expect(!JSONValue.isValidPath("a."))
    }

    @Test func integersKeepTheirExactValue() {
        #expect(json[path: "results.0.id"] == .integer(9_007_199_254_740_993))
        #expect(json[path: "results.0.price"]?.intValue == nil)
    }

    @Test func formatsWithSortedKeys() throws {
        let value = try JSONValue(parsing: Data(#"{"b": [1, 2.5, "x/y"], "a": null}"#.utf8))
        #expect(value.formatted(compact: true) == #"{"a":null,"b":[1,2.5,"x/y"]}"#)
        #expect(value.formatted() == "{\n  \"a\" : null,\n  \"b\" : [\n    1,\n    2.5,\n    \"x/y\"\n  ]\n}")
    }

    @Test func roundTripsThroughCodable() throws {
        let data = try JSONEncoder().encode(json)
        #expect(try JSONValue(parsing: data) == json)
    }

    @Test func rejectsInvalidJSON() {
        #expect(throws: DecodingError.self) { try JSONValue(parsing: Data("{\"a\": }".utf8)) }
    }
}
