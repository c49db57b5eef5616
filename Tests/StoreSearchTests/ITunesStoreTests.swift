import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import StoreSearch
import Testing

/// The iTunes store's search against a loopback stand-in for the iTunes Search API that answers with
/// realistic bodies: every kind of item, odd fields, `text/javascript`, leading blank lines.
@Suite(.loadLimited)
struct ITunesStoreTests {
    /// Runs `body` with a client pointed at a fresh test server.
    private func withStore(_ body: @Sendable (HTTPClient, TestServer) async throws -> Void) async throws {
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                try await body(
                    HTTPClient(
                        transport: transport,
                        configuration: .iTunesStore(baseURL: server.baseURL, timeout: .seconds(60))
                    ),
                    server
                )
            }
        }
    }

    @Test func everyKindOfItemBecomesAResult() async throws {
        try await withStore { store, server in
            let found = try await store.send(ITunesStore.search(term: "king"))
            #expect(found.resultCount == 18)
            #expect(found.skipped == 2, "a null name and a blank one")
            #expect(found.results.count == 16)
            let byName = Dictionary(found.results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

            let song = try #require(byName["Teen Angel"])
            #expect(song.artist == "Stephen King & The Rock Bottom Remainders")
            #expect(song.type == "Song")
            #expect(song.genre == "Rock")
            #expect(song.price == Decimal(string: "1.29"))
            #expect(song.currency == "USD")
            #expect(
                song.storeURL?.absoluteString
                    == "https://music.apple.com/us/album/teen-angel/1440818588?i=1440818664&uo=4"
            )
            #expect(song.imageSmall == server.url("/artwork/song-60.png"))
            #expect(song.imageLarge == server.url("/artwork/song-100.png"))

            #expect(byName["Track 10"]?.price == nil, "-1: sold only with its album")
            let app = try #require(byName["Kingdom Rush"])
            #expect([app.type, app.genre] == ["App", "Games"])
            #expect(app.price == 0)
            #expect(byName["Ångström Units"]?.price == 4, "an integer price")
            #expect(byName["Ångström Units"]?.currency == "SEK")
            let ebook = try #require(byName["The Shining"])
            #expect([ebook.type, ebook.genre] == ["E-Book", "Horror, Books"], "no primaryGenreName: the genres")
            #expect(byName["éclair recipes"]?.genre == nil, "genres: null")
            let audiobook = try #require(byName["It (Unabridged)"])
            #expect([audiobook.type, audiobook.artist] == ["Audiobook", "Stephen King"])
            #expect(audiobook.price == Decimal(string: "24.95"))
            #expect(audiobook.storeURL?.absoluteString == "https://books.apple.com/us/audiobook/it-unabridged/id9?uo=4")
            #expect(byName["The Dark Tower Podcast"]?.type == "Podcast")
            #expect(byName["The Shining (1980)"]?.type == "Movie")
            #expect(byName["Pet Sematary"]?.type == "Music Video")
            #expect(byName["Severance"]?.type == "TV Episode")
            let album = try #require(byName["Stephen King's Music"])
            #expect(album.type == "Album")
            #expect(album.price == 11)
            let artist = try #require(byName["Zebra Katz"])
            #expect(artist.type == "Artist")
            #expect(artist.artist == nil)
            #expect(artist.imageSmall == nil)
            let widget = try #require(byName["über Widget"])
            #expect(widget.type == "Interactive Widget", "a kind the store adds later, in words")
            #expect(widget.artist == nil)
            let odd = try #require(byName["Carrie"])
            #expect(odd.price == nil, "a price sent as a string is not trusted")
            #expect(odd.genre == nil)
            #expect(odd.storeURL == nil, "'not a url'")
        }
    }

    @Test func resultsAreSortedByNameLikeTheChapter() async throws {
        try await withStore { store, _ in
            let names = try await store.send(ITunesStore.search(term: "king")).results.map(\.name)
            let expected = names.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            #expect(names == expected)
            // Localized and case-insensitive, numbers by value: "Track 9" before "Track 10".
            #expect(names.firstIndex(of: "Track 9")! < names.firstIndex(of: "Track 10")!)
            #expect(names.firstIndex(of: "éclair recipes")! < names.firstIndex(of: "It (Unabridged)")!)
            #expect(names.firstIndex(of: "über Widget")! < names.firstIndex(of: "Zebra Katz")!)
        }
    }

    @Test(arguments: [
        (StoreCategory.music, "musicTrack", ["Song"], 1),
        (.software, "software", ["App"], 0),
        (.ebook, "ebook", ["E-Book"], 0),
        (.podcast, "podcast", ["Podcast"], 0),
        (.movie, "movie", ["Movie"], 0),
        (.audiobook, "audiobook", ["Audiobook"], 0),
    ])
    func aCategoryAsksForItsEntity(
        _ category: StoreCategory,
        _ entity: String,
        _ types: [String],
        _ skipped: Int
    )
        async throws
    {
        try await withStore { store, server in
            let found = try await store.send(
                ITunesStore.search(term: "king", category: category, country: "us", limit: 25)
            )
            #expect(!found.results.isEmpty)
            #expect(Set(found.results.map(\.type)) == Set(types))
            let query = try #require(await server.events.queries(for: "search").last)
            #expect(query.split(separator: "&").contains("entity=\(entity)"))
            #expect(query.split(separator: "&").contains("country=us"))
            #expect(query.split(separator: "&").contains("limit=25"))
        }
    }

    @Test func allSendsNoEntity() async throws {
        try await withStore { store, server in
            _ = try await store.send(ITunesStore.search(term: "king", category: .all))
            let query = try #require(await server.events.queries(for: "search").last)
            #expect(!query.contains("entity="))
        }
    }

    @Test(arguments: [
        "AT&T", "C++", "a=b", "#1 hits", "100% pure", "rock & roll", "🎸 guitar solos", "東京", "Привет, мир",
        "tab\tslash/question?", "semi;colon+plus", "  spaces around  ",
    ])
    func theTermArrivesExactlyAsTyped(_ term: String) async throws {
        try await withStore { store, server in
            _ = try await store.send(ITunesStore.search(term: term))
            let query = try #require(await server.events.queries(for: "search").last)
            let field = try #require(query.split(separator: "&").first { $0.hasPrefix("term=") })
            let encoded = field.dropFirst("term=".count)
            #expect(!encoded.contains("+") && !encoded.contains("#") && !encoded.contains("="), "\(encoded)")
            #expect(encoded.removingPercentEncoding == term)
        }
    }

    @Test func noResultsIsAnEmptyPage() async throws {
        try await withStore { store, _ in
            let found = try await store.send(ITunesStore.search(term: "nothing"))
            #expect(found == SearchResults(resultCount: 0, skipped: 0, results: []))
        }
    }

    @Test func theStoresErrorMessageReachesThePerson() async throws {
        try await withStore { store, _ in
            await #expect {
                _ = try await store.send(ITunesStore.search(term: "king", country: "usa"))
            } throws: { error in
                guard let error = error as? RequestError, case .clientError(let failure) = error else { return false }
                return failure.status == 400 && error.message.contains("Invalid value(s) for key(s): [country]")
            }
        }
    }

    @Test func aStoreThatIsDownIsATransportError() async throws {
        try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
            let store = HTTPClient(
                transport: transport,
                configuration: .iTunesStore(baseURL: URL(string: "http://127.0.0.1:9")!)
            )
            await #expect {
                _ = try await store.send(ITunesStore.search(term: "king"))
            } throws: { error in
                (error as? RequestError)?.category == .network
            }
        }
    }
}
