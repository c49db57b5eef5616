import ArgumentParser

/// `courier movies …`: favourite movies with their popularity from TMDB.
struct MoviesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "Keep the family's favourite movies, rated by their popularity on TMDB.",
        discussion: """
            A favourite is saved at once with its rating pending; the rating is then looked up on \
            TMDB and written back. A lookup that fails leaves the movie saved with the error \
            recorded; 'courier movies refresh' completes pending and stale ratings.

            TMDB needs credentials: TMDB_ACCESS_TOKEN (a v4 read access token) or TMDB_API_KEY \
            (a v3 key), from https://www.themoviedb.org/settings/api. To work offline, serve a \
            recording: courier replay Examples/movies.json --port 9401 & and pass \
            --service http://127.0.0.1:9401.

            Examples:
              courier family add Anna
              courier movies add --member Anna "Spirited Away"
              courier movies list --json
              courier movies watch --member Anna
              courier movies refresh --stale-after 7d --concurrency 8
              courier movies top-rated --page 2
              courier movies show 129

            \(ExitStatus.help)
            """,
        subcommands: [
            MoviesAdd.self, MoviesRemove.self, MoviesList.self, MoviesWatch.self, MoviesRefresh.self,
            MoviesTopRated.self, MoviesShow.self,
        ]
    )
}
