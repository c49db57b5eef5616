import ArgumentParser
import Favorites
import Foundation

/// `courier movies list [--member NAME] [--json]`.
struct MoviesList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List favourites with their rating: a popularity, pending, or the error that stopped it.",
        discussion: """
            With --json: an array of {"member", "title", "tmdb_id", "popularity", "fetched_at", \
            "error"}, null where unknown; fetched_at in ISO 8601 (UTC).
            """
    )

    @Option(help: "Only this member's favourites.")
    var member: String?

    @Flag(help: "Print the favourites as JSON instead of a table.")
    var json = false

    @OptionGroup var storage: DatabaseOption

    func run() async throws {
        let favorites = try await storage.perform { store throws(FavoritesError) in
            try await store.favorites(of: member)
        }
        if json {
            try Terminal.output(json: favorites.map(FavoritesOutput.FavoriteJSON.init))
        } else if favorites.isEmpty {
            Terminal.error("No favourites yet. Add one with: courier movies add --member NAME TITLE")
        } else {
            Terminal.output(FavoritesOutput.table(favorites, showingMember: member == nil))
        }
    }
}

/// `courier movies watch [--member NAME]`: the list, drawn again whenever the database changes.
struct MoviesWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show the favourites and redraw them whenever they change, also when another courier writes.",
        discussion: """
            Runs until interrupted (Ctrl-C). On a terminal the screen is redrawn in place; \
            otherwise each version of the list is printed after the last, followed by an empty line.
            """
    )

    @Option(help: "Only this member's favourites.")
    var member: String?

    @OptionGroup var storage: DatabaseOption

    func run() async throws {
        let store = try storage.open()
        let isTerminal = CommandContext.isTerminal(STDOUT_FILENO)
        var updates = store.favoritesUpdates(of: member).makeAsyncIterator()
        do throws(FavoritesError) {
            while let favorites = try await updates.next() {
                var screen = isTerminal ? "\u{1B}[H\u{1B}[2J" : ""
                let whose = member.map { "\($0)'s favourites" } ?? "Favourites"
                let pending = favorites.filter { $0.popularity == nil }.count
                let time = Date().formatted(date: .omitted, time: .standard)
                screen += "\(whose): \(favorites.count), \(pending) pending (\(time))\n"
                if !favorites.isEmpty {
                    screen += FavoritesOutput.table(favorites, showingMember: member == nil) + "\n"
                }
                Terminal.write(Data((isTerminal ? screen : screen + "\n").utf8))
            }
        } catch {
            throw CommandFailure(error)
        }
    }
}
