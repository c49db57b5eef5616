public import Foundation

/// A movie someone in the family likes, stored once however many members like it.
public struct Movie: Sendable, Hashable, Identifiable {
    /// The movie's row id.
    public var id: Int64
    /// The title as first typed.
    public var title: String
    /// The TMDB movie the title was matched to, once looked up.
    public var tmdbID: Int?
    /// TMDB's popularity score, once looked up.
    public var popularity: Double?
    /// When ``popularity`` was fetched.
    public var fetchedAt: Date?
    /// Why the last lookup failed; `nil` after a successful one.
    public var lastError: String?

    /// Creates a movie.
    public init(
        id: Int64,
        title: String,
        tmdbID: Int? = nil,
        popularity: Double? = nil,
        fetchedAt: Date? = nil,
        lastError: String? = nil
    ) {
        self.id = id
        self.title = title
        self.tmdbID = tmdbID
        self.popularity = popularity
        self.fetchedAt = fetchedAt
        self.lastError = lastError
    }
}
