/// A movie as TMDB describes it on its own page: everything a list entry has (read through
/// ``summary``, or directly: `details.title`), and more.
///
/// Unknowns read as `nil`: TMDB's `null` artwork, collection, IMDb id and runtime, its empty
/// release date, tagline and homepage, and a runtime of 0.
@dynamicMemberLookup
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

    /// The fields a list entry has: id, titles, release date, popularity, votes, overview,
    /// artwork.
    public var summary: MovieSummary
    /// The tagline, such as "It begins."
    public var tagline: String?
    /// The running time in minutes.
    public var runtime: Int?
    /// The genres, in TMDB's order.
    public var genres: [Genre]
    /// The release status, such as "Released" or "In Production".
    public var status: String?
    /// The series the movie belongs to.
    public var collection: Collection?
    /// The IMDb id, such as `tt1160419`.
    public var imdbID: String?
    /// The movie's own web site.
    public var homepage: String?

    /// TMDB's id for the movie.
    public var id: Int { summary.id }

    /// A field of ``summary``: `details.title`, `details.popularity`, `details.year`.
    public subscript<Value>(dynamicMember field: KeyPath<MovieSummary, Value>) -> Value {
        summary[keyPath: field]
    }

    enum CodingKeys: String, CodingKey {
        case tagline, runtime, genres, status, homepage
        case collection = "belongs_to_collection"
        case imdbID = "imdb_id"
    }

    /// Decodes TMDB's JSON, reading its `null`s and empty strings for unknowns as `nil`.
    public init(from decoder: any Decoder) throws {
        summary = try MovieSummary(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tagline = try container.decodeNonEmpty(forKey: .tagline)
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime).flatMap { $0 > 0 ? $0 : nil }
        genres = try container.decodeIfPresent([Genre].self, forKey: .genres) ?? []
        status = try container.decodeNonEmpty(forKey: .status)
        collection = try container.decodeIfPresent(Collection.self, forKey: .collection)
        imdbID = try container.decodeNonEmpty(forKey: .imdbID)
        homepage = try container.decodeNonEmpty(forKey: .homepage)
    }

    /// Encodes one flat object, as TMDB sends it.
    public func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(tagline, forKey: .tagline)
        try container.encodeIfPresent(runtime, forKey: .runtime)
        try container.encode(genres, forKey: .genres)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(collection, forKey: .collection)
        try container.encodeIfPresent(imdbID, forKey: .imdbID)
        try container.encodeIfPresent(homepage, forKey: .homepage)
    }
}
