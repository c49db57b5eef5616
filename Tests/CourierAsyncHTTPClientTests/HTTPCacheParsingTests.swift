import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// The parsing table of the Caching responses article, row by row against the loopback server: each
/// response carries the fields of a row, and the hit counter shows whether the stored response
/// was reused. The article's table and this one must list the same cases with the same rule.
@Suite(.loadLimited)
struct HTTPCacheParsingTests {
    struct Row: Sendable, CustomStringConvertible {
        /// The response's caching fields, one line each.
        var fields: [(String, String)]
        /// Whether a second request is answered from the cache.
        var reused: Bool

        /// The row's first cell in the article.
        var description: String { fields.map { "`\($0.0): \($0.1)`" }.joined(separator: " + ") }
    }

    static let future = "Thu, 18 Aug 2050 02:01:18 GMT"
    static let past = "Sat, 01 Jan 2000 00:00:00 GMT"

    static func control(_ value: String, reused: Bool) -> Row {
        Row(fields: [("Cache-Control", value)], reused: reused)
    }
    static func age(_ value: String, reused: Bool) -> Row {
        Row(fields: [("Cache-Control", "max-age=600"), ("Age", value)], reused: reused)
    }
    static func expires(_ value: String, reused: Bool) -> Row { Row(fields: [("Expires", value)], reused: reused) }

    static let rows: [Row] = [
        control("max-age=\"600\"", reused: true),
        control("max-age=000600", reused: true),
        control("max-age=-600", reused: false),
        control("max-age=600.5", reused: false),
        control("max-age=a600", reused: false),
        control("max-age=600a", reused: false),
        control("max-age=99999999999", reused: true),
        control("max-age =600", reused: true),
        control("max-age= 600", reused: true),
        control("MAX-AGE=600", reused: true),
        control("max-age='600'", reused: false),
        control("max-age=", reused: false),
        control("x=\"max-age=600\", max-age=0", reused: false),
        control("max-age=600, max-age=0", reused: true),
        control("max-age=0, max-age=600", reused: false),
        Row(fields: [("Cache-Control", "max-age=600"), ("Cache-Control", "max-age=0")], reused: true),
        Row(fields: [("Cache-Control", "max-age=600"), ("Expires", past)], reused: true),
        Row(fields: [("Cache-Control", "max-age=0"), ("Expires", future)], reused: false),
        control("max-age=600, no-store", reused: false),
        control("foo, max-age=600", reused: true),
        control("max-age=600; no-store", reused: false),
        age("abc", reused: true),
        age("-1200", reused: true),
        age("1200.0", reused: true),
        age("1200;foo=bar", reused: true),
        age("2147483648", reused: false),
        age("1200, 0", reused: false),
        age("0, 1200", reused: true),
        Row(fields: [("Cache-Control", "max-age=600"), ("Age", "1200"), ("Age", "0")], reused: false),
        expires(future, reused: true),
        expires("Thursday, 18-Aug-50 02:01:18 GMT", reused: true),
        expires("Thu Aug 18 02:01:18 2050", reused: true),
        expires("0", reused: false),
        expires(past, reused: false),
        expires("thu, 18 aug 2050 02:01:18 gmt", reused: true),
        expires("Thu, 18 Aug 2050 02:01:18 UTC", reused: true),
        expires("Thu 18 Aug 2050 02:01:18 GMT", reused: true),
        expires("Thu, 18-Aug-2050 02:01:18 GMT", reused: true),
        expires("Thu, 18 Aug 2050 2:01:18 GMT", reused: true),
        expires("Thu, 18 Aug 2050 02:01:18 AEST", reused: true),
        expires("Thu, 18 Aug 50 02:01:18 GMT", reused: true),
        expires("Thu, 18 Aug 2050 02.01.18 GMT", reused: false),
        Row(fields: [("Expires", future), ("Expires", past)], reused: true),
        Row(fields: [("Date", "foo"), ("Expires", future)], reused: true),
    ]

    @Test func eachRowIsReusedOrNotAsTheTableSays() async throws {
        try await HTTPCacheTests.withHarness { harness in
            for (index, row) in Self.rows.enumerated() {
                let extras = row.fields.map { name, value in
                    "extra=" + ("\(name):\(value)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                }
                let path = "/cacheable/row\(index)?" + extras.joined(separator: "&")
                let first = try await harness.get(path)
                #expect(first.status == 200, "\(row)")
                let second = try await harness.get(path)
                #expect((second.cacheOutcome == .hit) == row.reused, "\(row)")
                #expect(await harness.hits("row\(index)") == (row.reused ? 1 : 2), "\(row)")
            }
        }
    }

    @Test func theArticlesTableListsTheseRowsWithTheirRules() throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Courier/Courier.docc/CachingResponses.md").standardized
        let text = try String(contentsOf: article, encoding: .utf8)
        var documented: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            documented[cells[0]] = cells[4]
        }
        for row in Self.rows {
            let rule = documented.removeValue(forKey: row.description)
            #expect(rule != nil, "the article's table has no row \(row)")
            if let rule {
                let agrees =
                    row.reused ? rule.hasPrefix("reused") : rule.hasPrefix("validated") || rule.hasPrefix("not stored")
                #expect(agrees, "\(row): \(rule)")
            }
        }
        #expect(documented.isEmpty, "rows the test does not check: \(documented.keys.sorted())")
    }
}
