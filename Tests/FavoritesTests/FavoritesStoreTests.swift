import CourierTestTraits
import Favorites
import Foundation
import GRDB
import Testing

/// The store on a real SQLite file in a temporary directory.
@Suite(.loadLimited)
struct FavoritesStoreTests {
    @Test func membersAreUniqueIgnoringCaseAndAccents() async throws {
        try await withTemporaryStore { store in
            let anna = try await store.addMember("  Anna ")
            #expect(anna.name == "Anna")
            try await store.addMember("Zoë")
            await #expect(throws: FavoritesError.memberExists("Anna")) { try await store.addMember("ANNA") }
            await #expect(throws: FavoritesError.memberExists("Zoë")) { try await store.addMember("zoe") }
            await #expect(throws: FavoritesError.blankName) { try await store.addMember(" \n") }
            let names = try await store.members().map(\.name)
            #expect(names == ["Anna", "Zoë"])
            await #expect(throws: FavoritesError.unknownMember("Bob", known: ["Anna", "Zoë"])) {
                try await store.addFavorite("Dune", for: "Bob")
            }
        }
    }

    @Test func aFavoriteIsSavedPendingAndSharedBetweenMembers() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            try await store.addMember("Ben")
            let first = try await store.addFavorite("Amélie", for: "Anna")
            #expect(first.favorite.rating == .pending)
            #expect(first.favorite.title == "Amélie")
            #expect(!first.wasAlreadyFavorite)
            let again = try await store.addFavorite("amelie", for: "anna")
            #expect(again.wasAlreadyFavorite)
            #expect(again.favorite.movieID == first.favorite.movieID)

            try await store.recordRating(of: first.favorite.movieID, tmdbID: 194, popularity: 28.12)
            let shared = try await store.addFavorite("AMÉLIE", for: "Ben")
            #expect(shared.favorite.movieID == first.favorite.movieID)
            #expect(shared.favorite.title == "Amélie", "the title as first typed")
            #expect(shared.favorite.rating == .popularity(28.12))
            #expect(shared.favorite.tmdbID == 194)

            await #expect(throws: FavoritesError.blankTitle) { try await store.addFavorite("  ", for: "Ben") }
            let members = try await store.members()
            #expect(members.map(\.favoriteCount) == [1, 1])
        }
    }

    @Test func failuresAreRecordedAndAnEarlierRatingStays() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            let dune = try await store.addFavorite("Dune", for: "Anna").favorite
            let heat = try await store.addFavorite("Heat", for: "Anna").favorite
            try await store.recordFailure(of: dune.movieID, reason: "TMDB answered 503")
            #expect(try await store.favorites(of: "Anna").first?.rating == .failed("TMDB answered 503"))

            let fetched = Date(timeIntervalSince1970: 1_700_000_000)
            try await store.recordRating(of: heat.movieID, tmdbID: 949, popularity: 40.5, at: fetched)
            try await store.recordFailure(of: heat.movieID, reason: "timed out")
            let stored = try #require(try await store.favorites(of: "Anna").last)
            #expect(stored.rating == .popularity(40.5))
            #expect(stored.lastError == "timed out")
            #expect(stored.fetchedAt == fetched)
        }
    }

    @Test func pendingFailedAndStaleMoviesNeedARating() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let day: TimeInterval = 86_400
            var ids: [String: Int64] = [:]
            for title in ["Fresh", "Stale", "Pending", "Failed"] {
                ids[title] = try await store.addFavorite(title, for: "Anna").favorite.movieID
            }
            try await store.recordRating(of: ids["Fresh"]!, tmdbID: 1, popularity: 1, at: now - 6 * day)
            try await store.recordRating(of: ids["Stale"]!, tmdbID: 2, popularity: 2, at: now - 8 * day)
            try await store.recordFailure(of: ids["Failed"]!, reason: "no match")
            let needed = try await store.moviesNeedingRating(staleAfter: .seconds(7 * day), now: now)
            #expect(needed.map(\.title) == ["Pending", "Failed", "Stale"])
            #expect(needed.last?.tmdbID == 2)
            let all = try await store.moviesNeedingRating(staleAfter: .zero, now: now)
            #expect(all.count == 4)
        }
    }

    @Test func removingCleansUpMoviesNobodyLikes() async throws {
        try await withTemporaryStore { store in
            try await store.addMember("Anna")
            try await store.addMember("Ben")
            try await store.addFavorite("Dune", for: "Anna")
            try await store.addFavorite("Dune", for: "Ben")
            try await store.addFavorite("Heat", for: "Ben")
            try await store.removeFavorite("DUNE", for: "Ben")
            await #expect(throws: FavoritesError.notAFavorite(title: "Dune", member: "Ben")) {
                try await store.removeFavorite("Dune", for: "Ben")
            }
            #expect(try await store.moviesNeedingRating(staleAfter: .zero).map(\.title).sorted() == ["Dune", "Heat"])
            try await store.removeMember("ben")
            #expect(try await store.moviesNeedingRating(staleAfter: .zero).map(\.title) == ["Dune"])
            #expect(try await store.favorites().map(\.member) == ["Anna"])
            await #expect(throws: FavoritesError.unknownMember("Ben", known: ["Anna"])) {
                try await store.removeMember("Ben")
            }
        }
    }

    @Test func theFileIsReopenedMigratedAndInWALMode() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = directory.appendingPathComponent("nested/favorites.sqlite")
        do {
            let store = try FavoritesStore(at: location)
            try await store.addMember("Anna")
            try await store.addFavorite("Dune", for: "Anna")
        }
        let reopened = try FavoritesStore(at: location)
        #expect(try await reopened.favorites().map(\.title) == ["Dune"])
        #expect(try await reopened.integrityCheck() == ["ok"])

        let queue = try DatabaseQueue(path: location.path)
        let mode = try await queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let migrations = try await queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations == ["v1: members, movies, favourites"])
        try await queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        #expect {
            try FavoritesStore(at: location)
        } throws: { error in
            guard case .cannotOpen(_, let reason) = error as? FavoritesError else { return false }
            return reason.contains("newer version of Courier")
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedWithThePath() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0x41, count: 4096).write(to: file)
        #expect {
            try FavoritesStore(at: file)
        } throws: { error in
            guard case .cannotOpen(let path, let reason) = error as? FavoritesError else { return false }
            return path == file.path && reason.contains("not a database")
        }
    }

    @Test func theDefaultLocationFollowsXDG() {
        #expect(
            FavoritesStore.defaultLocation(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path
                == "/data/courier/favorites.sqlite"
        )
        #expect(
            FavoritesStore.defaultLocation(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]).path
                == "/home/a/.local/share/courier/favorites.sqlite"
        )
    }
}
