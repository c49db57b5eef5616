import CourierTestTraits
import Foundation
import Testing

@testable import Courier

@Suite(.loadLimited)
struct ByteRangeRequestTests {
    @Test(arguments: [
        ("bytes=0-499", 1000, ByteRangeRequest.Selection.bytes(0..<500)),
        ("bytes=500-", 1000, .bytes(500..<1000)),
        ("bytes=-100", 1000, .bytes(900..<1000)),
        ("bytes=-5000", 1000, .bytes(0..<1000)),
        ("bytes=900-5000", 1000, .bytes(900..<1000)),
        ("bytes=999-999", 1000, .bytes(999..<1000)),
        ("Bytes=1-2", 1000, .bytes(1..<3)),
        ("bytes= 1-2 , ", 1000, .bytes(1..<3)),
        ("bytes=1000-", 1000, .unsatisfiable),
        ("bytes=99999999999999999999999-", 1000, .unsatisfiable),
        ("bytes=0-99999999999999999999999", 1000, .bytes(0..<1000)),
        ("bytes=-99999999999999999999999", 1000, .bytes(0..<1000)),
        ("bytes=-0", 1000, .unsatisfiable),
        ("bytes=0-", 0, .unsatisfiable),
        ("bytes=-5", 0, .whole),
        ("bytes=0-1,4-5", 1000, .whole),
    ])
    func selectsTheBytesOfOneRange(field: String, length: Int, selection: ByteRangeRequest.Selection) throws {
        let ranges = try #require(ByteRangeRequest(field))
        #expect(ranges.selection(length: length) == selection)
    }

    @Test func invalidFieldsAreIgnored() {
        for field in [
            "", "bytes=", "bytes", "bytes=,", "items=0-1", "bytes=1-0", "bytes=a-1", "bytes=1-b", "bytes=-",
            "bytes=+1-2", "bytes=1 -2", "bytes=0x1-2", "bytes=1-2-3", "bytes=١-٢",
        ] {
            #expect(ByteRangeRequest(field) == nil, "\(field)")
        }
    }
}

@Suite(.loadLimited)
struct ContentRangeTests {
    @Test func readsAndWritesTheField() throws {
        let range = try #require(ContentRange("bytes 10-19/100"))
        #expect(range.offsets == 10..<20)
        #expect(range.total == 100)
        #expect(ContentRange(10..<20, of: 100).description == "bytes 10-19/100")
        #expect(ContentRange("bytes 10-19/*")?.total == nil)
        for invalid in ["bytes 19-10/100", "bytes 10-19/15", "bytes */100", "bytes -1-5/10", "items 0-1/2"] {
            #expect(ContentRange(invalid) == nil, "\(invalid)")
        }
    }
}

@Suite(.loadLimited)
struct PartialContentTests {
    /// `count` bytes of a representation, byte i being i % 251.
    static func bytes(_ range: Range<Int>) -> Data { Data(range.map { UInt8($0 % 251) }) }

    /// `parts` merged in order into an entry of a 1000-byte representation.
    static func merged(_ parts: [Range<Int>]) throws -> (PartialContent, Data) {
        var entry = try #require(PartialContent(part: parts[0], completeLength: 1000))
        var body = bytes(parts[0])
        for part in parts.dropFirst() {
            (entry, body) = try #require(entry.merging(bytes(part), at: part.lowerBound, body: body))
        }
        return (entry, body)
    }

    @Test func partsMergeWhereTheyOverlapOrTouch() throws {
        let (entry, body) = try Self.merged([100..<200, 300..<400, 150..<300, 0..<10])
        #expect(entry.spans.map(\.range) == [0..<10, 100..<400])
        #expect(body == Self.bytes(0..<10) + Self.bytes(100..<400))
        #expect(entry.isConsistent(bodyCount: body.count))
        #expect(entry.covers(120..<400))
        #expect(!entry.covers(5..<20))
        #expect(entry.bytes(120..<130, in: body) == Self.bytes(120..<130))
        #expect(entry.bytes(5..<20, in: body) == nil)
        #expect(!entry.isComplete)
    }

    @Test func theMissingBytesOfARange() throws {
        let (entry, _) = try Self.merged([100..<200, 300..<400])
        #expect(entry.missing(in: 0..<1000) == 0..<1000)
        #expect(entry.missing(in: 100..<1000) == 200..<1000)
        #expect(entry.missing(in: 100..<400) == 200..<300)
        #expect(entry.missing(in: 150..<200) == nil)
        #expect(entry.missing(in: 150..<250) == 200..<250)
        #expect(entry.missing(in: 50..<150) == 50..<100)
    }

    @Test func theLastMissingPartCompletesIt() throws {
        let (entry, body) = try Self.merged([500..<1000, 0..<600])
        #expect(entry.isComplete)
        #expect(body == Self.bytes(0..<1000))
    }

    @Test func partsThatDoNotFitOrScatterTooMuchAreRefused() throws {
        let entry = try #require(PartialContent(part: 0..<10, completeLength: 1000))
        #expect(entry.merging(Data(count: 10), at: 995, body: Self.bytes(0..<10)) == nil)
        #expect(entry.merging(Data(count: 10), at: -1, body: Self.bytes(0..<10)) == nil)
        #expect(entry.merging(Data(count: 10), at: Int.max, body: Self.bytes(0..<10)) == nil)
        #expect(PartialContent(part: 0..<0, completeLength: 10) == nil)
        #expect(PartialContent(part: 5..<11, completeLength: 10) == nil)

        var scattered = entry
        var body = Self.bytes(0..<10)
        for index in 1..<PartialContent.maximumSpans {
            (scattered, body) = try #require(scattered.merging(Data([1]), at: index * 20, body: body))
        }
        #expect(scattered.spans.count == PartialContent.maximumSpans)
        #expect(scattered.merging(Data([1]), at: 999, body: body) == nil)
    }

    @Test func partsFromAFileAreChecked() throws {
        let decoder = JSONDecoder()
        func decoded(_ json: String) throws -> PartialContent {
            try decoder.decode(PartialContent.self, from: Data(json.utf8))
        }
        let valid = try decoded(#"{"completeLength":100,"spans":[{"offset":0,"count":10},{"offset":20,"count":5}]}"#)
        #expect(valid.isConsistent(bodyCount: 15))
        #expect(!valid.isConsistent(bodyCount: 16))
        for json in [
            #"{"completeLength":100,"spans":[]}"#,
            #"{"completeLength":100,"spans":[{"offset":20,"count":5},{"offset":0,"count":10}]}"#,
            #"{"completeLength":100,"spans":[{"offset":0,"count":10},{"offset":10,"count":5}]}"#,
            #"{"completeLength":100,"spans":[{"offset":95,"count":10}]}"#,
            #"{"completeLength":100,"spans":[{"offset":-5,"count":10}]}"#,
            #"{"completeLength":100,"spans":[{"offset":0,"count":0}]}"#,
            #"{"completeLength":-1,"spans":[{"offset":0,"count":1}]}"#,
            #"{"completeLength":9223372036854775807,"spans":[{"offset":9223372036854775806,"count":9223372036854775807}]}"#,
        ] {
            let parts = try decoded(json)
            #expect(!parts.isConsistent(bodyCount: parts.spans.reduce(0) { $0 &+ $1.count }), "\(json)")
        }
    }
}
