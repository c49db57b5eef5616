import Foundation
import GRDB

extension FavoritesStore {
    /// The favourites (every member's, or one member's) now and after every change, through a
    /// GRDB `ValueObservation`.
    ///
    /// SQLite tells a connection only about its own process's writes, so a dedicated
    /// connection also checks `PRAGMA data_version` every `interval`; when another process
    /// committed, the observation is told to fetch again. Equal consecutive lists are
    /// skipped. The stream ends with ``FavoritesError/unknownMember(_:known:)`` if the member
    /// is removed.
    ///
    /// ```swift
    /// for try await favorites in store.favoritesUpdates(of: "Anna") {
    ///     render(favorites)
    /// }
    /// ```
    public func favoritesUpdates(
        of member: String? = nil,
        checkingOtherProcessesEvery interval: Duration = .milliseconds(200)
    ) -> FavoritesUpdates {
        let observation = ValueObservation.tracking { db in try Self.favorites(of: member, in: db) }
            .removeDuplicates()
        let pool = self.pool
        let store = self
        let lists = AsyncThrowingStream<[FavoriteMovie], any Error> { continuation in
            let task = Task {
                do {
                    // Other processes' writes count from before the first list: one made as
                    // soon as it is seen is not missed (nor was it, before, only when the
                    // polling task happened to start after it).
                    let (probe, version) = try await store.dataVersionProbe()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await favorites in observation.values(in: pool) {
                                continuation.yield(favorites)
                            }
                        }
                        group.addTask {
                            try await store.forwardOtherProcessesChanges(probe: probe, from: version, every: interval)
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch let error as FavoritesError {
                    continuation.finish(throwing: error)
                } catch {
                    continuation.finish(
                        throwing: FavoritesError.database(path: store.location.path, reason: Self.reason(error))
                    )
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return FavoritesUpdates(lists, path: location.path)
    }

    /// A connection of its own for `PRAGMA data_version` (the value is per connection), and
    /// the value now.
    private func dataVersionProbe() async throws -> (DatabaseQueue, Int?) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(Self.busyTimeout.timeInterval)
        configuration.label = "favorites.data-version"
        let probe = try DatabaseQueue(path: location.path, configuration: configuration)
        let version = try await probe.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
        return (probe, version)
    }

    /// Polls `probe`'s `PRAGMA data_version` from `version` on and turns a change into a
    /// notification for this process's observers.
    private func forwardOtherProcessesChanges(
        probe: DatabaseQueue,
        from version: Int?,
        every interval: Duration
    ) async throws {
        var version = version
        while true {
            try await Task.sleep(for: interval)
            let current = try await probe.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
            guard current != version else { continue }
            version = current
            try await pool.write { try $0.notifyChanges(in: .fullDatabase) }
        }
    }
}
