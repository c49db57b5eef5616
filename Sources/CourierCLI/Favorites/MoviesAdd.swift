import ArgumentParser
import Courier
import Favorites
import Foundation

/// `courier movies add --member NAME TITLE`: the chapter's flow — saved at once, rated after.
struct MoviesAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a favourite at once, then look up its popularity on TMDB.",
        discussion: """
            The favourite is committed and printed with its rating pending before TMDB is asked. \
            The best match is the first result whose title or original title equals TITLE \
            (ignoring case and accents), else TMDB's first result. If the lookup fails, the \
            favourite stays saved with the error recorded: 'courier movies refresh' tries again.
            """
    )

    @Option(help: "Whose favourite it is.")
    var member: String

    @Argument(help: "The movie's title.")
    var title: String

    @OptionGroup var storage: DatabaseOption

    @OptionGroup var tmdb: TMDBOptions

    func run() async throws {
        let store = try storage.open()
        let favorite: FavoriteMovie
        do throws(FavoritesError) {
            favorite = try await store.addFavorite(title, for: member).favorite
        } catch {
            throw CommandFailure(error)
        }
        let saved = "\(favorite.title) is saved for \(favorite.member)"
        if let popularity = favorite.popularity {
            Terminal.output(
                "Saved \(favorite.title) for \(favorite.member): popularity \(FavoritesOutput.popularity(popularity))."
            )
            return
        }
        Terminal.output("Saved \(favorite.title) for \(favorite.member): rating pending.")
        let credentials: TMDBCredentials?
        do {
            credentials = try tmdb.credentials()
        } catch let failure as CommandFailure {
            _ = try? await store.recordFailure(
                of: favorite.movieID,
                reason:
                    "no TMDB credentials: set \(TMDBCredentials.accessTokenVariable) or \(TMDBCredentials.apiKeyVariable)"
            )
            throw CommandFailure("\(saved), its rating pending. \(failure.message)", status: failure.status)
        }
        let outcome = try await tmdb.withClient(credentials: credentials) { client in
            do throws(FavoritesError) {
                return try await RatingUpdater(store: store, tmdb: client).rate(favorite.movieID)
            } catch {
                throw CommandFailure(error)
            }
        }
        switch outcome {
        case .rated(let match):
            let year = match.year.map { ", \($0)" } ?? ""
            Terminal.output(
                "\(favorite.title): popularity \(FavoritesOutput.popularity(match.popularity)) (TMDB \(match.tmdbID): \(match.title)\(year))."
            )
        case .noMatch:
            throw CommandFailure(
                "\(RatingUpdater.noMatchReason(favorite.title)). \(saved), its rating pending; check the spelling, "
                    + "or remove it with: courier movies remove --member '\(favorite.member)' '\(favorite.title)'.",
                status: .nothingFound
            )
        case .failed(let error):
            throw CommandFailure(
                "\(saved), its rating pending: \(CommandFailure.tmdbMessage(for: error, sentCredentials: credentials)) "
                    + "Run 'courier movies refresh' to try again.",
                status: ExitStatus(error)
            )
        case .removed:
            Terminal.error("\(favorite.title) was removed before its rating arrived.")
        }
    }
}

/// `courier movies remove --member NAME TITLE`.
struct MoviesRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take a movie off someone's favourites."
    )

    @Option(help: "Whose favourite it is.")
    var member: String

    @Argument(help: "The movie's title, as listed (case and accents ignored).")
    var title: String

    @OptionGroup var storage: DatabaseOption

    func run() async throws {
        try await storage.perform { store throws(FavoritesError) in try await store.removeFavorite(title, for: member) }
        Terminal.output("Removed \(title) from \(member)'s favourites.")
    }
}
