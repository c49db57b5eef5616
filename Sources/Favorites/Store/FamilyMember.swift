public import Foundation

/// Someone in the family, with favourite movies of their own.
public struct FamilyMember: Codable, Sendable, Hashable, Identifiable {
    /// The member's row id.
    public var id: Int64
    /// The name as it was given; names are unique ignoring case and accents.
    public var name: String
    /// When the member was added.
    public var addedAt: Date
    /// How many favourite movies the member has.
    public var favoriteCount: Int

    /// Creates a member.
    public init(id: Int64, name: String, addedAt: Date, favoriteCount: Int = 0) {
        self.id = id
        self.name = name
        self.addedAt = addedAt
        self.favoriteCount = favoriteCount
    }
}
