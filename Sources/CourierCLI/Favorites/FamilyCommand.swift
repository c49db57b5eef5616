import ArgumentParser
import Favorites
import Foundation

/// `courier family add|list|remove`: the people whose favourite movies are kept.
struct FamilyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Add, list and remove family members, each with favourite movies of their own.",
        discussion: """
            Names are unique ignoring case and accents. Removing someone removes their favourites.

            Examples:
              courier family add Anna
              courier family list --json
              courier family remove Anna
            """,
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add someone to the family.")

        @Argument(help: "Their name.")
        var name: String

        @OptionGroup var storage: DatabaseOption

        func run() async throws {
            let member = try await storage.perform { store throws(FavoritesError) in try await store.addMember(name) }
            Terminal.output("Added \(member.name).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the family, with how many favourites each has."
        )

        @Flag(help: "Print the members as JSON instead of a table.")
        var json = false

        @OptionGroup var storage: DatabaseOption

        func run() async throws {
            let members = try await storage.perform { store throws(FavoritesError) in try await store.members() }
            if json {
                let rows = members.map {
                    MemberJSON(name: $0.name, favorites: $0.favoriteCount, addedAt: $0.addedAt.ISO8601Format())
                }
                try Terminal.output(json: rows)
            } else if members.isEmpty {
                Terminal.error("Nobody yet. Add someone with: courier family add NAME")
            } else {
                let table = Table(
                    columns: [.init("NAME"), .init("FAVOURITES", alignment: .right), .init("ADDED")],
                    rows: members.map { [$0.name, String($0.favoriteCount), FavoritesOutput.date($0.addedAt)] }
                )
                Terminal.output(table.rendered())
            }
        }

        private struct MemberJSON: Encodable {
            var name: String
            var favorites: Int
            var addedAt: String

            enum CodingKeys: String, CodingKey {
                case name, favorites
                case addedAt = "added_at"
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove someone and their favourites."
        )

        @Argument(help: "Their name.")
        var name: String

        @OptionGroup var storage: DatabaseOption

        func run() async throws {
            let member = try await storage.perform { store throws(FavoritesError) in try await store.removeMember(name)
            }
            let count = member.favoriteCount
            Terminal.output("Removed \(member.name) and \(count == 1 ? "1 favourite" : "\(count) favourites").")
        }
    }
}
