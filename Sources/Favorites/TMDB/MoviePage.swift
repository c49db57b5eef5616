public import Courier

/// One page of a TMDB movie list: a search or a chart.
public struct MoviePage: Decodable, Sendable {
    /// The page number, from 1.
    public var page: Int
    /// The movies on this page; an entry that does not decode is skipped and counted in
    /// `results.skipped`, so one odd movie does not cost the page.
    public var results: LossyArray<MovieSummary>
    /// How many pages the list has.
    public var totalPages: Int
    /// How many movies the list has.
    public var totalResults: Int

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }

    /// Creates a page.
    public init(page: Int = 1, results: [MovieSummary], totalPages: Int = 1, totalResults: Int? = nil) {
        self.page = page
        self.results = LossyArray(results)
        self.totalPages = totalPages
        self.totalResults = totalResults ?? results.count
    }

    /// Decodes TMDB's JSON, reading its `null`s and empty strings for unknowns as `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        page = try container.decodeIfPresent(Int.self, forKey: .page) ?? 1
        results = try container.decode(LossyArray<MovieSummary>.self, forKey: .results)
        totalPages = try container.decodeIfPresent(Int.self, forKey: .totalPages) ?? 1
        totalResults = try container.decodeIfPresent(Int.self, forKey: .totalResults) ?? results.count
    }

    /// The movie a person most likely means by `title`: the first whose title or original
    /// title equals it, ignoring case, accents and surrounding spaces; else TMDB's first (most
    /// relevant) result; `nil` for an empty page.
    public func bestMatch(for title: String) -> MovieSummary? {
        let wanted = MatchKey(title)
        return results.first { MatchKey($0.title) == wanted || $0.originalTitle.map(MatchKey.init) == wanted }
            ?? results.first
    }
}
