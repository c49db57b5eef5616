/// What can go wrong with the favourites store, each case saying what to do.
public enum FavoritesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be opened, created or migrated.
    case cannotOpen(path: String, reason: String)
    /// A read or write failed (disk full, file damaged, locked for too long).
    case database(path: String, reason: String)
    /// A family member's name was empty.
    case blankName
    /// A movie title was empty.
    case blankTitle
    /// A family member with this name (ignoring case) already exists.
    case memberExists(String)
    /// No family member has this name; `known` lists those that exist.
    case unknownMember(String, known: [String])
    /// The movie is not among the member's favourites.
    case notAFavorite(title: String, member: String)

    /// One line for a person: what failed and what to do.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "Cannot open the favourites database \(path): \(reason). Check that its directory is writable, "
                + "or open another file."
        case .database(let path, let reason):
            "The favourites database \(path) failed: \(reason). Nothing reported saved was lost; try again."
        case .blankName:
            "A family member needs a name."
        case .blankTitle:
            "A movie needs a title."
        case .memberExists(let name):
            "\(name) is already in the family."
        case .unknownMember(let name, let known):
            "Nobody called '\(name)' is in the family"
                + (known.isEmpty ? "" : " (there is: \(known.joined(separator: ", ")))")
                + ". Add them to the family first."
        case .notAFavorite(let title, let member):
            "'\(title)' is not among \(member)'s favourites."
        }
    }
}
