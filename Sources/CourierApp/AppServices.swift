public import Courier
public import CourierImages
public import Favorites
public import Foundation
public import GitWire
import LibraryKit
public import StoreSearch

/// What the app's tabs talk to: each service the chapters use, live or replayed.
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let services = try AppServices(
///         library: HTTPClient(transport: transport, configuration: .library(service: libraryURL)),
///         store: HTTPClient(transport: transport, configuration: .iTunesStore()),
///         artwork: ImagePipeline(transport: transport, cacheDirectory: nil),
///         tmdb: HTTPClient(transport: transport, configuration: .tmdb(credentials: credentials)),
///         favorites: FavoritesStore(at: databaseURL),
///         feeds: HTTPClient(transport: transport)
///     )
///     try await AppServer(services: services).run(port: 8090)
/// }
/// ```
public struct AppServices: Sendable {
    /// The library service (seed 000), for `LibraryService`'s endpoints.
    public var library: HTTPClient
    /// The store searched by the Store tab (seed 002), for `ITunesStore`'s endpoints.
    public var store: HTTPClient
    /// The country and language every store search is made for; `nil` (the default) for each
    /// page's own, read from the browser's language (`StoreLocale(identifier:)`). A recording
    /// made without them needs `StoreLocale()`.
    public var storeLocale: StoreLocale?
    /// Loads artwork for the Store tab; only URLs of results the app returned are asked for.
    public var artwork: ImagePipeline
    /// Rates favourites and lists the top-rated movies (seeds 001/004), for
    /// `TMDB`'s endpoints.
    public var tmdb: HTTPClient
    /// The family's favourites.
    public var favorites: FavoritesStore
    /// Fetches the feeds a person asks for; its security policy decides which hosts may be
    /// reached over cleartext.
    public var feeds: HTTPClient
    /// Lists a `git://` repository's refs for the Refs tab.
    public var git: AsyncGitClient
    /// Lists an `https://` repository's refs for the Refs tab; by default on `feeds`'s client,
    /// with ``gitLimits``.
    public var gitOverHTTP: HTTPGitClient
    /// A feed document offered on the Feed tab, read with no network.
    public var exampleFeed: Data?
    /// A repository offered on the Refs tab, served on this machine
    /// (``ExampleRepository/withService(logger:_:)``).
    public var exampleRepository: URL?
    /// Lines the page shows about where the data comes from ("Store: a recording…").
    public var notes: [String]

    /// What the Refs tab accepts from a server: 100,000 refs in 32 MiB, more than any page
    /// can show.
    public static let gitLimits = GitLimits(maximumRefs: 100_000, maximumBytes: 32 << 20)

    /// Services for the app. The cleartext rules for `git://` come from `feeds`'s security
    /// policy, and `gitOverHTTP` is made on `feeds` unless given.
    public init(
        library: HTTPClient,
        store: HTTPClient,
        storeLocale: StoreLocale? = nil,
        artwork: ImagePipeline,
        tmdb: HTTPClient,
        favorites: FavoritesStore,
        feeds: HTTPClient,
        git: AsyncGitClient = AsyncGitClient(limits: AppServices.gitLimits),
        gitOverHTTP: HTTPGitClient? = nil,
        exampleFeed: Data? = AppExamples.feed,
        exampleRepository: URL? = nil,
        notes: [String] = []
    ) {
        self.library = library
        self.store = store
        self.storeLocale = storeLocale
        self.artwork = artwork
        self.tmdb = tmdb
        self.favorites = favorites
        self.feeds = feeds
        self.git = git
        self.gitOverHTTP = gitOverHTTP ?? HTTPGitClient(client: feeds, limits: AppServices.gitLimits)
        self.exampleFeed = exampleFeed
        self.exampleRepository = exampleRepository
        self.notes = notes
    }
}
