/// What kind of item to search the store for: the chapter's four categories and three more.
public enum StoreCategory: String, Sendable, Hashable, CaseIterable, Codable {
    /// Everything: no `entity` parameter.
    case all
    /// Songs (`musicTrack`).
    case music
    /// Apps (`software`).
    case software
    /// E-books (`ebook`).
    case ebook
    /// Podcasts (`podcast`).
    case podcast
    /// Films (`movie`).
    case movie
    /// Audiobooks (`audiobook`).
    case audiobook

    /// The value of the Search API's `entity` parameter; `nil` for ``all``.
    public var entity: String? {
        switch self {
        case .all: nil
        case .music: "musicTrack"
        case .software: "software"
        case .ebook: "ebook"
        case .podcast: "podcast"
        case .movie: "movie"
        case .audiobook: "audiobook"
        }
    }
}
