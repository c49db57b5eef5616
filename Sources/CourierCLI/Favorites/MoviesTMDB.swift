import ArgumentParser
import Courier
import Favorites
import Foundation

/// `courier movies top-rated [--page N]`: TMDB's chart.
struct MoviesTopRated: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top-rated",
        abstract: "List TMDB's best-rated movies, twenty a page."
    )

    @Option(
        help: "Which page (\(NumericOption.describe(Self.pageRange))).",
        transform: NumericOption.integer(in: Self.pageRange)
    )
    var page = 1

    @Flag(help: "Print the page as JSON instead of a table.")
    var json = false

    @OptionGroup var tmdb: TMDBOptions

    /// `--page`: the pages TMDB serves.
    static let pageRange = 1...TMDB.maximumPage

    func run() async throws {
        let page = self.page
        let credentials = try tmdb.credentials()
        let chart = try await tmdb.withClient(credentials: credentials) { client in
            do throws(RequestError) {
                return try await client.send(TMDB.movies.topRated(page: page))
            } catch {
                throw CommandFailure(error, sentCredentials: credentials)
            }
        }
        if json {
            try Terminal.output(json: PageJSON(chart))
            return
        }
        // Numbered from the page asked for: the page number the server sends back is not trusted in arithmetic.
        let first = (page - 1) * 20 + 1
        let rows = chart.results.enumerated().map { index, movie in
            [
                String(first + index), movie.title, movie.year.map(String.init) ?? "",
                String(format: "%.1f", movie.voteAverage), movie.voteCount.formatted(),
                FavoritesOutput.popularity(movie.popularity),
            ]
        }
        let columns: [Table.Column] = [
            .init("#", alignment: .right), .init("TITLE"), .init("YEAR"), .init("VOTE", alignment: .right),
            .init("VOTES", alignment: .right), .init("POPULARITY", alignment: .right),
        ]
        if !rows.isEmpty { Terminal.output(Table(columns: columns, rows: rows).rendered()) }
        let next = chart.page < min(chart.totalPages, TMDB.maximumPage) ? " Next: --page \(chart.page + 1)." : ""
        Terminal.error("Page \(chart.page) of \(chart.totalPages) (\(chart.totalResults.formatted()) movies).\(next)")
    }

    /// The page as TMDB sends it, for `--json`.
    private struct PageJSON: Encodable {
        var page: Int
        var results: [MovieSummary]
        var totalPages: Int
        var totalResults: Int

        init(_ page: MoviePage) {
            self.page = page.page
            results = Array(page.results)
            totalPages = page.totalPages
            totalResults = page.totalResults
        }

        enum CodingKeys: String, CodingKey {
            case page, results
            case totalPages = "total_pages"
            case totalResults = "total_results"
        }
    }
}

/// `courier movies show <tmdb-id>`: one movie's details.
struct MoviesShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one movie's details from TMDB."
    )

    @Argument(
        help: "The movie's TMDB id, as 'courier movies list --json' or top-rated --json give it.",
        transform: NumericOption.integer(in: Self.idRange)
    )
    var id: Int

    @Flag(help: "Print the details as JSON.")
    var json = false

    @OptionGroup var tmdb: TMDBOptions

    /// TMDB ids are positive 32-bit numbers.
    static let idRange = 1...Int(Int32.max)

    func run() async throws {
        let id = self.id
        let credentials = try tmdb.credentials()
        let movie = try await tmdb.withClient(credentials: credentials) { client in
            do throws(RequestError) {
                return try await client.send(TMDB.movie(id).details)
            } catch {
                if error.httpFailure?.status == 404 {
                    throw CommandFailure("TMDB has no movie with id \(id). \(error.message)", status: .nothingFound)
                }
                throw CommandFailure(error, sentCredentials: credentials)
            }
        }
        if json {
            try Terminal.output(json: movie)
            return
        }
        Terminal.output(Self.describe(movie))
    }

    /// The title line, the tagline, a field per line, then the overview.
    static func describe(_ movie: MovieDetails) -> String {
        var lines = [movie.title + (movie.year.map { " (\($0))" } ?? "")]
        if let original = movie.originalTitle, original != movie.title { lines.append(original) }
        if let tagline = movie.tagline { lines.append(tagline) }
        lines.append("")
        var fields: [(String, String)] = [("TMDB id", String(movie.id))]
        if let imdb = movie.imdbID { fields.append(("IMDb id", imdb)) }
        if !movie.genres.isEmpty { fields.append(("Genres", movie.genres.map(\.name).joined(separator: ", "))) }
        if let runtime = movie.runtime { fields.append(("Runtime", "\(runtime) min")) }
        let status = movie.status.map { " (\($0))" } ?? ""
        fields.append(("Released", (movie.releaseDate ?? "not yet") + status))
        if movie.voteCount > 0 {
            fields.append(
                ("Rating", String(format: "%.1f/10 from %@ votes", movie.voteAverage, movie.voteCount.formatted()))
            )
        }
        fields.append(("Popularity", FavoritesOutput.popularity(movie.popularity)))
        if let collection = movie.collection { fields.append(("Collection", collection.name)) }
        if let homepage = movie.homepage { fields.append(("Homepage", homepage)) }
        let width = fields.map(\.0.count).max() ?? 0
        lines += fields.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
        if let overview = movie.overview { lines += ["", overview] }
        return lines.joined(separator: "\n")
    }
}
