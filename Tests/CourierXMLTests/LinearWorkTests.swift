import CourierTestTraits
import CourierXML
import Foundation
import Testing

/// The work of the tokenizer's searches for the ends of tokens, tags and comments, counted: linear in the
/// input whatever it holds and however it is cut, checked without a clock. A search that
/// started over (a chunk rescanning its unfinished token, a `<` looking to the end of the text
/// for its `>`) would count the square of the input here.
@Suite(.loadLimited)
struct LinearWorkTests {
    /// Runs `bytes` through the tokenizer in pieces of `size`; returns the bytes scanned.
    static func scanned(_ bytes: [UInt8], size: Int) throws -> Int {
        var tokenizer = XMLTokenizer()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            try tokenizer.feed(bytes[start..<end]) { _ in }
            start = end
        }
        try tokenizer.finish { _ in }
        return tokenizer.scanned
    }

    @Test(
        .hangGuard,
        arguments: [
            ("<!--", "-- -", "-->"), ("<title a='x' ", " b='a>b'", ">"), ("", "text ", "<title>"),
            ("<![CDATA[", "]] ", "]]>"), ("<!DOCTYPE x [", "<!-- ] -->", "]>"), ("<title a=\"", "x", "\">"),
        ]
    )
    func aLongTokenCutInSmallPiecesIsScannedOnce(open: String, fill: String, close: String) throws {
        var bytes = Array("<rss><channel><item><title>1</title></item>\(open)".utf8)
        while bytes.count < 1 << 16 { bytes += Array(fill.utf8) }
        bytes += Array("\(close)</title><item><title>2</title></item></channel></rss>".utf8)
        for size in [16, 4096] {
            let work = try Self.scanned(bytes, size: size)
            // Each byte once, and the few a terminator cut between pieces is looked at again.
            #expect(work <= bytes.count * 2, "\(open) in pieces of \(size): \(work) for \(bytes.count)")
        }
    }
}
