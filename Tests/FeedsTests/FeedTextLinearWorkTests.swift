import CourierTestTraits
import Foundation
import Testing

@testable import Feeds

/// The work of turning HTML into plain text, counted: linear in the input whatever it holds,
/// checked without a clock.
@Suite(.loadLimited)
struct FeedTextLinearWorkTests {
    @Test(arguments: ["<", "<a", "<a x=\"", "<!-- ", "<a x='1'>"])
    func htmlFullOfOpenBracketsIsScannedOnce(piece: String) {
        let html = "</p>" + String(repeating: piece, count: 20_000) + " end"
        var work = 0
        let text = FeedText.plainText(fromHTML: html, scanned: &work)
        #expect(work <= html.utf8.count * 3, "\(piece): \(work) for \(html.utf8.count)")
        // An unterminated comment hides the rest; anything else leaves the text after it.
        #expect(piece.hasPrefix("<!--") ? text.isEmpty : text.hasSuffix("end"))
    }
}
