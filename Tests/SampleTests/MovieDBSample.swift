import Courier

// The service the Courier module's samples talk to: the model in the article *Defining an API*
// (Courier.docc/DefiningAnAPI.md), verbatim.

struct Film: Decodable, Sendable {
    var id: Int
    var title: String
    var releaseDate: String?
}

struct FilmPage: Decodable, Sendable {
    var page: Int
    var results: [Film]
}

enum MovieDB {
    static let host = "api.themoviedb.org"

    static var search: Search { Search() }
    static var movies: Movies { Movies() }
    static func movie(_ id: Int) -> Movie { Movie(id: id) }

    struct Search {
        func movies(_ query: String, page: Int = 1) -> Endpoint<FilmPage> {
            Endpoint(host: MovieDB.host, path: "/3/search/movie")
                .appending(query: "query", query)
                .appending(query: "page", String(page))
                .convertingFromSnakeCase()
        }
    }

    struct Movies {
        func topRated(page: Int = 1) -> Endpoint<FilmPage> {
            Endpoint(host: MovieDB.host, path: "/3/movie/top_rated")
                .appending(query: "page", String(page))
                .convertingFromSnakeCase()
        }
    }

    struct Movie {
        var id: Int
        var details: Endpoint<Film> { Endpoint(host: MovieDB.host, path: "/3/movie/\(id)").convertingFromSnakeCase() }
    }
}
