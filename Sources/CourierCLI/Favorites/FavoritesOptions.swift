import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Favorites
import Foundation

/// `--database PATH`, shared by `courier family` and `courier movies`.
struct DatabaseOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The favourites database file.",
            discussion:
                "Default: $XDG_DATA_HOME/courier/favorites.sqlite, else ~/.local/share/courier/favorites.sqlite."
        )
    )
    var database: String?

    /// The store at `--database` or the default location, created if needed.
    func open() throws -> FavoritesStore {
        do {
            return try FavoritesStore(
                at: database.map { URL(fileURLWithPath: $0) }
                    ?? FavoritesStore.defaultLocation(environment: CommandContext.environment)
            )
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Runs `body` on the store, its failure turned into the command's.
    func perform<Result>(
        _ body: (FavoritesStore) async throws(FavoritesError) -> Result
    ) async throws -> Result {
        let store = try open()
        do {
            return try await body(store)
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// Where TMDB is and how to reach it, shared by the `courier movies` commands that call it.
struct TMDBOptions: ParsableArguments {
    @Option(help: "TMDB's address, for a stand-in or a recording served by courier replay.")
    var service = TMDB.defaultBaseURL.absoluteString

    @Option(
        help: "Give up on a request after this many seconds (\(NumericOption.describe(NumericOption.timeouts))).",
        transform: NumericOption.seconds(in: NumericOption.timeouts)
    )
    var timeout: Double = 15

    @OptionGroup var recording: RecordOption

    @OptionGroup var security: SecurityOptions

    func validate() throws {
        _ = try serviceURL()
    }

    func serviceURL() throws -> URL {
        try ServiceURL.parse(service, example: TMDB.defaultBaseURL.absoluteString)
    }

    /// `TMDB_ACCESS_TOKEN` or `TMDB_API_KEY`. A stand-in (`--service`) may be called without
    /// either; the real TMDB may not, and the failure says how to get a key or work offline.
    func credentials() throws -> TMDBCredentials? {
        if let credentials = TMDBCredentials(environment: CommandContext.environment) { return credentials }
        guard try serviceURL().host?.lowercased() != TMDB.defaultBaseURL.host else {
            throw CommandFailure(TMDBCredentials.commandLineHelp(serviceOption: "--service"), status: .usage)
        }
        return nil
    }

    /// Runs `body` with a TMDB client, recording the exchanges when `--record` asks to;
    /// `connections` HTTP/1.1 connections may be open at once (HTTP/2 multiplexes on one).
    func withClient<Result: Sendable>(
        credentials: TMDBCredentials?,
        connections: Int = 8,
        _ body: @Sendable (HTTPClient) async throws -> Result
    ) async throws -> Result {
        let baseURL = try serviceURL()
        let recorder = try recording.makeRecorder()
        let middleware: [any Middleware] = recorder.map { [$0] } ?? []
        let (policy, timeout) = (security.policy, timeout)
        return try await recording.recording(recorder) {
            try await security.withTransport(
                configuration: .init(maxConnectionsPerHost: connections)
            ) { transport in
                let tmdb = HTTPClient(
                    transport: transport,
                    configuration: .tmdb(
                        baseURL: baseURL,
                        credentials: credentials,
                        securityPolicy: policy,
                        timeout: NumericOption.duration(seconds: timeout),
                        middleware: middleware
                    )
                )
                return try await body(tmdb)
            }
        }
    }
}

extension CommandFailure {
    /// The store's failure with its exit status: names that match nothing are "nothing
    /// found", bad names and files are usage errors.
    /// The store says what failed; the command adds what to run or pass.
    init(_ error: FavoritesError) {
        let message = error.description + (Self.hint(for: error).map { " " + $0 } ?? "")
        switch error {
        case .unknownMember, .notAFavorite: self.init(message, status: .nothingFound)
        case .blankName, .blankTitle, .memberExists, .cannotOpen: self.init(message, status: .usage)
        case .database: self.init(message, status: .unexpected)
        }
    }

    private static func hint(for error: FavoritesError) -> String? {
        switch error {
        case .cannotOpen: "Pass another file with --database."
        case .memberExists: "List everyone with: courier family list."
        case .unknownMember(let name, _): "Add them with: courier family add '\(name)'."
        case .notAFavorite(_, let member): "See them with: courier movies list --member '\(member)'."
        case .blankName, .blankTitle, .database: nil
        }
    }
}

extension CommandFailure {
    /// A TMDB request's failure. A 401 when no credentials were sent (a stand-in given with
    /// `--service` that wants them after all) names the variables to set instead of asking to
    /// check credentials that do not exist.
    init(_ error: RequestError, sentCredentials credentials: TMDBCredentials?) {
        self.init(CommandFailure.tmdbMessage(for: error, sentCredentials: credentials), status: ExitStatus(error))
    }

    /// The message of ``init(_:sentCredentials:)``.
    static func tmdbMessage(for error: RequestError, sentCredentials credentials: TMDBCredentials?) -> String {
        guard credentials == nil, case .unauthorized(let failure) = error else { return CommandFailure(error).message }
        return "\(failure.request) returned \(failure.statusLine), and no credentials were sent: neither "
            + "\(TMDBCredentials.accessTokenVariable) nor \(TMDBCredentials.apiKeyVariable) is set. "
            + TMDBCredentials.commandLineHelp(serviceOption: "--service")
    }
}

extension TMDBCredentials {
    /// ``howToGetOne`` and how a `courier` user works without credentials: a recording served
    /// by `courier replay`, passed with `serviceOption`.
    static func commandLineHelp(serviceOption: String) -> String {
        howToGetOne
            + " To work offline, serve a recording instead: courier replay Examples/movies.json --port 9401 &"
            + " and pass \(serviceOption) http://127.0.0.1:9401."
    }
}
