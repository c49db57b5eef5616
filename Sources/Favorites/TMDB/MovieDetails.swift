/// A movie as TMDB describes it on its own page.
///
/// Unknowns read as `nil`: TMDB's `null` artwork, collection, IMDb id and runtime, its empty
/// release date, tagline and homepage, and a runtime of 0.
public struct MovieDetails: Codable, Sendable, Hashable, Identifiable {
    /// A genre, such as "Science Fiction".
    public struct Genre: Codable, Sendable, Hashable {
        /// TMDB's id for the genre.
        public var id: Int
        /// The genre's name.
        public var name: String
    }

    /// The series a movie belongs to, such as "Dune Collection".
    public struct Collection: Codable, Sendable, Hashable {
        /// TMDB's id for the collection.
        public var id: Int
        /// The collection's name.
        public var name: String
        /// The collection's poster path, if it has one.
        public var posterPath: String?

        enum CodingKeys: String, CodingKey {
            case id, name
            case posterPath = "poster_path"
        }
    }

    /// TMDB's id for the movie.
    public var id: Int
    /// The title in the request's language.
    public var title: String
    /// The title in the movie's original language.
    public var originalTitle: String?
    /// The tagline, such as "It begins."
    public var tagline: String?
    /// A summary of the plot.
    public var overview: String?
    /// The first release date as `YYYY-MM-DD`.
    public var releaseDate: String?
    /// The running time in minutes.
    public var runtime: Int?
    /// The genres, in TMDB's order.
    public var genres: [Genre]
    /// TMDB's popularity score.
    public var popularity: Double
    /// The mean vote, 0 to 10.
    public var voteAverage: Double
    /// How many votes ``voteAverage`` is made of.
    public var voteCount: Int
    /// The release status, such as "Released" or "In Production".
    public var status: String?
    /// The series the movie belongs to.
    public var collection: Collection?
    /// The IMDb id, such as `tt1160419`.
    public var imdbID: String?
    /// The movie's own web site.
    public var homepage: String?
    /// The poster image's path for TMDB's image service.
    public var posterPath: String?
    /// The backdrop image's path for TMDB's image service.
    public var backdropPath: String?

    /// The release year, if the date is known.
    public var year: Int? { releaseDate.flatMap { Int($0.prefix(4)) } }

    enum CodingKeys: String, CodingKey {
        case id, title, tagline, overview, runtime, genres, popularity, status, homepage
        case originalTitle = "original_title"
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case collection = "belongs_to_collection"
        case imdbID = "imdb_id"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
    }

    /// Decodes TMDB's JSON, reading its `null`s and empty strings for unknowns as `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        originalTitle = try container.decodeNonEmpty(forKey: .originalTitle)
        tagline = try container.decodeNonEmpty(forKey: .tagline)
        overview = try container.decodeNonEmpty(forKey: .overview)
        releaseDate = try container.decodeNonEmpty(forKey: .releaseDate)
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime).flatMap { $0 > 0 ? $0 : nil }
        genres = try container.decodeIfPresent([Genre].self, forKey: .genres) ?? []
        popularity = try container.decodeIfPresent(Double.self, forKey: .popularity) ?? 0
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount) ?? 0
        status = try container.decodeNonEmpty(forKey: .status)
        collection = try container.decodeIfPresent(Collection.self, forKey: .collection)
        imdbID = try container.decodeNonEmpty(forKey: .imdbID)
        homepage = try container.decodeNonEmpty(forKey: .homepage)
        posterPath = try container.decodeNonEmpty(forKey: .posterPath)
        backdropPath = try container.decodeNonEmpty(forKey: .backdropPath)
    }
}
