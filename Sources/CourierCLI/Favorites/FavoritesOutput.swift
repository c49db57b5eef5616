import Favorites
import Foundation

/// How favourites are shown: a table for people, JSON for programs.
enum FavoritesOutput {
    /// `MEMBER  TITLE  RATING  FETCHED`, the member column left out for one member's list.
    static func table(_ favorites: [FavoriteMovie], showingMember: Bool) -> String {
        var columns: [Table.Column] = showingMember ? [.init("MEMBER")] : []
        columns += [.init("TITLE"), .init("RATING"), .init("FETCHED")]
        let rows = favorites.map { favorite in
            (showingMember ? [favorite.member] : []) + [
                favorite.title, rating(favorite), favorite.fetchedAt.map(date) ?? "",
            ]
        }
        return Table(columns: columns, rows: rows).rendered()
    }

    /// "91.4", "pending", or "error: …" cut to a line's worth.
    static func rating(_ favorite: FavoriteMovie) -> String {
        switch favorite.rating {
        case .popularity(let value): return popularity(value)
        case .pending: return "pending"
        case .failed(let reason):
            let text = "error: \(reason)"
            return text.count > 70 ? String(text.prefix(69)) + "…" : text
        }
    }

    /// A popularity score to one decimal: `91.4`.
    static func popularity(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// The time in the local zone, to the minute: `2026-11-22 14:05`.
    static func date(_ date: Date) -> String {
        date.formatted(
            Date.VerbatimFormatStyle(
                format: """
                    \(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \
                    \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)
                    """,
                timeZone: .current,
                calendar: Calendar(identifier: .gregorian)
            )
        )
    }

    /// One favourite in `movies list --json`: every key present, `null` where unknown.
    struct FavoriteJSON: Encodable {
        var favorite: FavoriteMovie

        enum CodingKeys: String, CodingKey {
            case member, title, popularity, error
            case tmdbID = "tmdb_id"
            case fetchedAt = "fetched_at"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(favorite.member, forKey: .member)
            try container.encode(favorite.title, forKey: .title)
            try container.encode(favorite.tmdbID, forKey: .tmdbID)
            try container.encode(favorite.popularity, forKey: .popularity)
            try container.encode(favorite.fetchedAt?.ISO8601Format(), forKey: .fetchedAt)
            try container.encode(favorite.lastError, forKey: .error)
        }
    }
}
