public import Foundation

/// One favourite: a member's movie with its rating as far as it is known.
public struct FavoriteMovie: Sendable, Hashable {
    /// Where the movie's rating stands.
    public enum Rating: Sendable, Hashable {
        /// Not looked up yet, or the lookup has not finished.
        case pending
        /// The last lookup failed and there is no earlier rating; the reason is recorded.
        case failed(String)
        /// TMDB's popularity score.
        case popularity(Double)
    }

    /// The member whose favourite it is.
    public var member: String
    /// The movie's row id, shared by every member who likes it.
    public var movieID: Int64
    /// The title as the member typed it.
    public var title: String
    /// The TMDB movie the title was matched to, once looked up.
    public var tmdbID: Int?
    /// TMDB's popularity score, once looked up.
    public var popularity: Double?
    /// When ``popularity`` was fetched.
    public var fetchedAt: Date?
    /// Why the last lookup failed; `nil` after a successful one.
    public var lastError: String?
    /// When the member added the movie.
    public var addedAt: Date

    /// Creates a favourite.
    public init(
        member: String,
        movieID: Int64,
        title: String,
        tmdbID: Int? = nil,
        popularity: Double? = nil,
        fetchedAt: Date? = nil,
        lastError: String? = nil,
        addedAt: Date
    ) {
        self.member = member
        self.movieID = movieID
        self.title = title
        self.tmdbID = tmdbID
        self.popularity = popularity
        self.fetchedAt = fetchedAt
        self.lastError = lastError
        self.addedAt = addedAt
    }

    /// The rating to show: a popularity (even if a later refresh failed), else the failure,
    /// else pending.
    public var rating: Rating {
        if let popularity { return .popularity(popularity) }
        if let lastError { return .failed(lastError) }
        return .pending
    }
}
