/// A movie as TMDB lists it in searches and charts.
///
/// TMDB sends `null` for missing artwork and an empty string for an unknown release date;
/// both read as `nil` here.
public struct MovieSummary: Codable, Sendable, Hashable, Identifiable {
    /// TMDB's id for the movie.
    public var id: Int
    /// The title in the request's language.
    public var title: String
    /// The title in the movie's original language.
    public var originalTitle: String?
    /// The first release date as `YYYY-MM-DD`, or `nil` when TMDB does not know it.
    public var releaseDate: String?
    /// TMDB's popularity score: a daily measure of interest, unbounded.
    public var popularity: Double
    /// The mean vote, 0 to 10.
    public var voteAverage: Double
    /// How many votes ``voteAverage`` is made of.
    public var voteCount: Int
    /// A summary of the plot.
    public var overview: String?
    /// The poster image's path for TMDB's image service, if the movie has one.
    public var posterPath: String?
    /// The backdrop image's path for TMDB's image service, if the movie has one.
    public var backdropPath: String?

    /// Creates a summary.
    public init(
        id: Int,
        title: String,
        originalTitle: String? = nil,
        releaseDate: String? = nil,
        popularity: Double,
        voteAverage: Double = 0,
        voteCount: Int = 0,
        overview: String? = nil,
        posterPath: String? = nil,
        backdropPath: String? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.releaseDate = releaseDate
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.overview = overview
        self.posterPath = posterPath
        self.backdropPath = backdropPath
    }

    /// The release year, if the date is known.
    public var year: Int? { releaseDate.flatMap { Int($0.prefix(4)) } }

    enum CodingKeys: String, CodingKey {
        case id, title, popularity, overview
        case originalTitle = "original_title"
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
    }

    /// Decodes TMDB's JSON, reading its `null`s and empty strings for unknowns as `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        originalTitle = try container.decodeNonEmpty(forKey: .originalTitle)
        releaseDate = try container.decodeNonEmpty(forKey: .releaseDate)
        popularity = try container.decodeIfPresent(Double.self, forKey: .popularity) ?? 0
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount) ?? 0
        overview = try container.decodeNonEmpty(forKey: .overview)
        posterPath = try container.decodeNonEmpty(forKey: .posterPath)
        backdropPath = try container.decodeNonEmpty(forKey: .backdropPath)
    }
}

extension KeyedDecodingContainer {
    /// A string that is `nil` when the key is missing, `null` or empty, as TMDB sends unknowns.
    func decodeNonEmpty(forKey key: Key) throws -> String? {
        guard let text = try decodeIfPresent(String.self, forKey: key), !text.isEmpty else { return nil }
        return text
    }
}
