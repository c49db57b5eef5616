// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierURLSession", targets: ["CourierURLSession"]),
        .library(name: "CourierJSON", targets: ["CourierJSON"]),
        .library(name: "CourierCassettes", targets: ["CourierCassettes"]),
        .library(name: "CourierReplay", targets: ["CourierReplay"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "CourierServerKit", targets: ["CourierServerKit"]),
        .library(name: "LibraryKit", targets: ["LibraryKit"]),
        .library(name: "LibrarySearch", targets: ["LibrarySearch"]),
        .library(name: "LibraryServer", targets: ["LibraryServer"]),
        .library(name: "LibraryPostgres", targets: ["LibraryPostgres"]),
        .library(name: "Feeds", targets: ["Feeds"]),
        .library(name: "CourierXML", targets: ["CourierXML"]),
        .library(name: "GitWire", targets: ["GitWire"]),
        .library(name: "CourierImages", targets: ["CourierImages"]),
        .library(name: "StoreSearch", targets: ["StoreSearch"]),
        .library(name: "Favorites", targets: ["Favorites"]),
        .library(name: "CourierApp", targets: ["CourierApp"]),
        .executable(name: "courier", targets: ["CourierCLI"]),
    ],
    traits: [
        // `courier get --transport urlsession`. Foundation's networking links libcurl and some
        // twenty libraries under it, so the shipped binary (`scripts/release`) leaves it out.
        .trait(
            name: "URLSessionTransport",
            description: "The courier command's URLSession transport, which links libcurl."
        ),
        .default(enabledTraits: ["URLSessionTransport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Tests only: validates the service's OpenAPI document. Its default trait (external
        // reference loading) is not needed and slows the build.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0", traits: []),
    ],
    targets: [
        .target(
            name: "Courier",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The transport on Foundation's URLSession: its own module, as FoundationNetworking
        // brings libcurl with it on Linux.
        .target(
            name: "CourierURLSession",
            dependencies: [
                "Courier",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // JSON for people: formatting, colouring, sorting and picking, streamed (`courier get`).
        .target(
            name: "CourierJSON",
            dependencies: ["Courier"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "Courier",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // Recording exchanges and replaying them: a product feature (`courier get --record`,
        // `courier replay`, the app's offline recordings) that tests use too.
        .target(
            name: "CourierCassettes",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // `courier replay`: recordings served on this machine, on the server kit.
        .target(
            name: "CourierReplay",
            dependencies: [
                "Courier",
                "CourierCassettes",
                "CourierServerKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CourierTesting",
            dependencies: [
                "Courier",
                "CourierCassettes",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "LibraryKit",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // What Courier's servers share: limits, graceful stops, the access log, problem answers,
        // the Host guard, compression, TLS. The servers build on it; the engine knows nothing of it.
        .target(
            name: "CourierServerKit",
            dependencies: [
                "Courier",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        // The library service's data, its prefix search and the stores it answers from: no HTTP.
        .target(
            name: "LibrarySearch",
            dependencies: ["Courier", "LibraryKit", .product(name: "Logging", package: "swift-log")],
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedResources"]
        ),
        .target(
            name: "LibraryServer",
            dependencies: [
                "Courier",
                "CourierServerKit",
                "LibraryKit",
                "LibrarySearch",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedResources"]
        ),
        // The library service's catalog in PostgreSQL, shared by replicas.
        .target(
            name: "LibraryPostgres",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                "Courier",
                "LibraryKit",
                "LibrarySearch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // XML read as it arrives, for any service: events, namespaces, paths.
        .target(
            name: "CourierXML",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Feeds",
            dependencies: ["Courier", "CourierXML"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CourierImages",
            dependencies: [
                "Courier",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StoreSearch",
            dependencies: [
                "Courier",
                "CourierImages",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Favorites",
            dependencies: [
                "Courier",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GitWire",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // `courier app`: the chapters' apps in a browser, on Hummingbird. The engine knows nothing of it.
        .target(
            name: "CourierApp",
            dependencies: [
                "Courier",
                "CourierCassettes",
                "CourierImages",
                "CourierServerKit",
                "Favorites",
                "Feeds",
                "GitWire",
                "LibraryKit",
                "LibraryServer",
                "LibrarySearch",
                "StoreSearch",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedResources"]
        ),
        // Builds a target's Resources folder into its code (`EmbeddedResources`), so that the
        // courier binary is one file that works wherever it is copied.
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["EmbedResourcesTool"],
            path: "Plugins/EmbedResources"
        ),
        .executableTarget(
            name: "EmbedResourcesTool",
            path: "Plugins/EmbedResourcesTool",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "CourierCLI",
            dependencies: [
                "Courier",
                "CourierApp",
                "CourierAsyncHTTPClient",
                "CourierCassettes",
                "CourierJSON",
                "CourierReplay",
                "CourierServerKit",
                "CourierImages",
                .target(name: "CourierURLSession", condition: .when(traits: ["URLSessionTransport"])),
                "Favorites",
                "Feeds",
                "GitWire",
                "LibraryKit",
                "LibraryPostgres",
                "LibraryServer",
                "LibrarySearch",
                "StoreSearch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // The traits every test suite carries (`.loadLimited`, `.hangGuard`): Swift Testing
        // only, so that any test target can use them on any platform.
        .target(
            name: "CourierTestTraits",
            path: "Tests/CourierTestTraits",
            swiftSettings: swiftSettings
        ),

        // A loopback HTTP server with the routes the transport conformance suite, the CLI tests
        // and the client benchmark need. Not a product: it exists for tests and benchmarks.
        .target(
            name: "CourierTestServer",
            dependencies: [
                .product(name: "NIOPosix", package: "swift-nio"),
                "Courier",
                "CourierAsyncHTTPClient",
                "GitWire",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/CourierTestServer",
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),

        // The app on loopback with the stand-ins behind it, and a client for its page: for the
        // app's tests, the CLI's and the app benchmark.
        .target(
            name: "CourierAppFixture",
            dependencies: [
                "Courier",
                "CourierApp",
                "CourierAsyncHTTPClient",
                "CourierImages",
                "CourierServerKit",
                "CourierTestServer",
                "Favorites",
                "GitWire",
                "LibraryKit",
                "StoreSearch",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/CourierAppFixture",
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier",
                "CourierTestServer",
                "CourierTestTraits",
                "CourierTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierJSONTests",
            dependencies: ["Courier", "CourierJSON", "CourierTestServer", "CourierTestTraits"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierAsyncHTTPClientTests",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                "CourierTestTraits",
                "CourierURLSession",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierCassettesTests",
            dependencies: [
                "Courier",
                "CourierCassettes",
                "CourierTestTraits",
                "CourierTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierTestingTests",
            dependencies: [
                "Courier",
                "CourierTestTraits",
                "CourierTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LibraryKitTests",
            dependencies: [
                "Courier",
                "CourierTestTraits",
                "CourierTesting",
                "LibraryKit",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierServerKitTests",
            dependencies: [
                "Courier",
                "CourierServerKit",
                "CourierTestServer",
                "CourierTestTraits",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierReplayTests",
            dependencies: [
                "Courier",
                "CourierCassettes",
                "CourierReplay",
                "CourierTestTraits",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LibrarySearchTests",
            dependencies: [
                "CourierTestTraits", "LibraryKit", "LibrarySearch", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LibraryPostgresTests",
            dependencies: ["Courier", "CourierTestTraits", "LibraryKit", "LibraryPostgres", "LibrarySearch"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LibraryServerTests",
            dependencies: [
                "CourierServerKit",
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierTestTraits",
                "LibraryKit",
                "LibraryPostgres",
                "LibraryServer",
                "LibrarySearch",
                "CourierTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierXMLTests",
            dependencies: ["CourierTestTraits", "CourierXML"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FeedsTests",
            dependencies: ["CourierTestTraits", "Feeds"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierImagesTests",
            dependencies: [
                "Courier", "CourierAsyncHTTPClient", "CourierImages", "CourierTestServer", "CourierTestTraits",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StoreSearchTests",
            dependencies: [
                "Courier", "CourierAsyncHTTPClient", "CourierImages", "CourierTestServer", "CourierTestTraits",
                "StoreSearch", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FavoritesTests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                "CourierTestTraits",
                "Favorites",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GitWireTests",
            dependencies: ["Courier", "CourierAsyncHTTPClient", "CourierTestServer", "CourierTestTraits", "GitWire"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierAppTests",
            dependencies: [
                "CourierImages",
                "CourierAppFixture",
                "CourierServerKit",
                "Courier",
                "CourierApp",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                "CourierTestTraits",
                "CourierTesting",
                "Favorites",
                "GitWire",
                "StoreSearch",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierCLITests",
            dependencies: [
                "Courier",
                "CourierAppFixture",
                "CourierAsyncHTTPClient",
                "CourierCLI",
                "CourierServerKit",
                "CourierTestServer",
                "CourierTestTraits",
                "Favorites",
                "GitWire",
                "LibraryKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The repository's own rules, read from its files: every library documented, every
        // sample compiled, library messages in library terms, every suite load-limited.
        .testTarget(
            name: "RepositoryTests",
            dependencies: ["CourierTestTraits"],
            swiftSettings: swiftSettings
        ),
        // Every Swift sample of the README, the DocC articles and the `///` comments, compiled.
        .testTarget(
            name: "SampleTests",
            dependencies: [
                "CourierReplay",
                "CourierServerKit",
                "Courier",
                "CourierApp",
                "CourierAsyncHTTPClient",
                "CourierCassettes",
                "CourierImages",
                "CourierJSON",
                "CourierTestTraits",
                "CourierTesting",
                "CourierURLSession",
                "Favorites",
                "CourierXML",
                "Feeds",
                "GitWire",
                "LibraryKit",
                "LibraryPostgres",
                "LibraryServer",
                "LibrarySearch",
                "StoreSearch",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

// What only the people who work on Courier need loads only when they ask, as Hummingbird's
// manifest does, so that `swift build` of a clone (and CI) builds no benchmark, and no package
// that depends on Courier ever resolves these:
// - `COURIER_BENCHMARKS=1`: package-benchmark, the micro-benchmarks (`swift package benchmark`)
//   and the programs the `Benchmarks/compare` scripts run (which set it themselves);
// - `COURIER_DOCS=1`: the DocC plugin (`swift package generate-documentation`), which CI uses.
if Context.environment["COURIER_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"])
    )
    package.targets += [
        // Micro-benchmarks: `swift package benchmark`.
        .executableTarget(
            name: "CourierBenchmarks",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                "CourierImages",
                "CourierTesting",
                "Favorites",
                "CourierXML",
                "GitWire",
                "StoreSearch",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/CourierBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Micro-benchmarks of the library service's search: `swift package benchmark --target LibraryBenchmarks`.
        .executableTarget(
            name: "LibraryBenchmarks",
            dependencies: [
                "LibraryKit",
                "LibrarySearch",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LibraryBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Writes data sets for Benchmarks/compare/library: the built-in one, or 1M synthetic books.
        .executableTarget(
            name: "library-data",
            dependencies: ["LibraryKit", "LibrarySearch"],
            path: "Benchmarks/compare/library/Sources",
            swiftSettings: swiftSettings
        ),
        // Feed parsing for Benchmarks/compare/feeds: Courier's streaming parser and a tree-building baseline.
        .executableTarget(
            name: "feed-bench",
            dependencies: ["Feeds"],
            path: "Benchmarks/compare/feeds/Sources",
            swiftSettings: swiftSettings
        ),
        // XMLEventReader and XMLPathReader against Foundation's XMLParser: Benchmarks/compare/xml.
        .executableTarget(
            name: "xml-bench",
            dependencies: ["CourierXML"],
            path: "Benchmarks/compare/xml/Sources",
            swiftSettings: swiftSettings
        ),
        // git http-backend behind a loopback server, for Benchmarks/compare/git/http.sh.
        .executableTarget(
            name: "git-http-bench",
            dependencies: ["CourierTestServer"],
            path: "Benchmarks/compare/git/Sources",
            swiftSettings: swiftSettings
        ),
        // The TMDB stand-in, seeding and checking for Benchmarks/compare/movies.
        .executableTarget(
            name: "movies-bench",
            dependencies: ["CourierTestServer", "Favorites"],
            path: "Benchmarks/compare/movies/Sources",
            swiftSettings: swiftSettings
        ),
        // One streamed body or event stream, read by Courier or raw AHC, for Benchmarks/compare/streaming.
        .executableTarget(
            name: "stream-bench",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/compare/streaming/Sources",
            swiftSettings: swiftSettings
        ),
        // The app in Chromium against the store stand-in, for Benchmarks/compare/app.
        .executableTarget(
            name: "app-bench",
            dependencies: [
                "CourierAppFixture",
                "Courier",
                "CourierApp",
                "CourierAsyncHTTPClient",
                "CourierImages",
                "CourierTestServer",
                "Favorites",
                "LibraryKit",
                "StoreSearch",
            ],
            path: "Benchmarks/compare/app/Sources",
            swiftSettings: swiftSettings
        ),
        // Loopback load generator for Benchmarks/compare/client: Courier+AHC vs raw AHC vs URLSession.
        .executableTarget(
            name: "client-load",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Benchmarks/compare/client/Sources",
            swiftSettings: swiftSettings
        ),
    ]
}
if Context.environment["COURIER_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
