import Courier
import Foundation

/// What one search found: the results to show, sorted by name, and how many items the store
/// sent that could not be shown.
public struct SearchResults: Sendable, Hashable, Codable {
    /// How many items the store said it returned (`resultCount`).
    public var resultCount: Int
    /// Items skipped for having no usable name (or for not being an item at all).
    public var skipped: Int
    /// The results, by name: localized, case-insensitive, numbers in numeric order.
    public var results: [SearchResult]

    /// Results as given; ``init(resultCount:skipped:sorting:)`` sorts them.
    public init(resultCount: Int, skipped: Int, results: [SearchResult]) {
        self.resultCount = resultCount
        self.skipped = skipped
        self.results = results
    }

    /// Results sorted by name as the chapter does (`localizedStandardCompare`), then by artist.
    public init(resultCount: Int, skipped: Int, sorting results: [SearchResult]) {
        self.init(resultCount: resultCount, skipped: skipped, results: Self.sorted(results))
    }

    private enum CodingKeys: String, CodingKey {
        case resultCount = "result_count"
        case skipped, results
    }

    init(_ response: SearchResponse) {
        let items = response.results ?? LossyArray()
        var results: [SearchResult] = []
        results.reserveCapacity(items.count)
        for item in items {
            if let result = SearchResult(item) { results.append(result) }
        }
        let notShown = items.count - results.count + items.skipped.count
        self.init(
            resultCount: response.resultCount ?? items.count + items.skipped.count,
            skipped: notShown,
            sorting: results
        )
    }

    static func sorted(_ results: [SearchResult]) -> [SearchResult] {
        results.enumerated().sorted { left, right in
            switch left.element.name.localizedStandardCompare(right.element.name) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame:
                let artists = (left.element.artist ?? "").localizedStandardCompare(right.element.artist ?? "")
                return artists == .orderedSame ? left.offset < right.offset : artists == .orderedAscending
            }
        }.map(\.element)
    }
}
