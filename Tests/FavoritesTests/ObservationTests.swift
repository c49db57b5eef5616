import Courier
import CourierTestServer
import CourierTestTraits
import Favorites
import Foundation
import Testing

/// `favoritesUpdates` sees changes made through the same store, through another connection
/// (as another process would), and a rating arriving from TMDB.
@Suite(.loadLimited)
struct ObservationTests {
    @Test func anObserverSeesTheFavoriteThenItsRatingArrive() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            try await withTMDB { tmdb, _ in
                var updates = store.favoritesUpdates(of: "Anna").makeAsyncIterator()
                #expect(try await updates.next() == [])
                let added = try await store.addFavorite("Spirited Away", for: "Anna")
                let pending = try await updates.next()
                #expect(pending?.map(\.rating) == [.pending])
                _ = try await RatingUpdater(store: store, tmdb: tmdb).rate(added.favorite.movieID)
                let rated = try await updates.next()
                #expect(rated?.map(\.rating) == [.popularity(95.007)])
                #expect(rated?.first?.tmdbID == 129)
            }
        }
    }

    @Test func writesThroughAnotherConnectionAreSeen() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            // A second store has connections of its own: to SQLite it is another process.
            let other = try FavoritesStore(at: store.location)
            var updates = store.favoritesUpdates(checkingOtherProcessesEvery: .milliseconds(20)).makeAsyncIterator()
            #expect(try await updates.next() == [])
            let added = try await other.addFavorite("Heat", for: "Anna")
            #expect(try await updates.next()?.map(\.title) == ["Heat"])
            try await other.recordRating(of: added.favorite.movieID, tmdbID: 949, popularity: 33.1)
            #expect(try await updates.next()?.map(\.rating) == [.popularity(33.1)])
        }
    }

    @Test func watchingARemovedMemberEndsWithTheReason() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            try await store.addMember("Ben")
            var updates = store.favoritesUpdates(of: "Ben").makeAsyncIterator()
            #expect(try await updates.next() == [])
            try await store.removeMember("Ben")
            await #expect(throws: FavoritesError.unknownMember("Ben", known: ["Anna"])) {
                _ = try await updates.next()
            }
        }
    }
}
