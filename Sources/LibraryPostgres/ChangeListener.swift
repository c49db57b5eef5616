import Logging
import PostgresNIO

/// Listens for the library's changes on a connection of its own (`LISTEN courier_library`),
/// and reports what it learns: the data's version after each change, and whether the database
/// can be reached.
///
/// Every change announces its new version when it commits. A connection can die silently (a
/// NAT forgets it, a network splits), so the version is also read once a ``heartbeat``: that
/// proves the connection alive and would catch a lost notice. After any failure it connects
/// again, waiting a little longer each time, up to 2 seconds.
struct ChangeListener: Sendable {
    /// What the listener learnt.
    enum Event: Sendable, Equatable {
        /// A connection could not be made, for this reason.
        case unreachable(reason: String)
        /// A connection was made.
        case connected
        /// The data is at this version (announced, or read).
        case version(Int64)
        /// Notifications stopped: until a ``version(_:)`` arrives, changes may go unheard.
        case lost
    }

    /// How often the listening connection is checked.
    static let heartbeat = Duration.seconds(1)
    /// The longest a heartbeat waits for its answer, however long searches may wait: a
    /// connection that stays silent this long is given up for a new one, so that a database
    /// gone without a word (its host lost, a network split) is noticed within seconds.
    static let heartbeatTimeout = Duration.seconds(5)

    let url: DatabaseURL
    /// The longest wait for a connection.
    let connectTimeout: Duration
    /// The longest wait for a search's answer: a heartbeat waits at most this long too, and at
    /// most ``heartbeatTimeout``.
    let queryTimeout: Duration
    let logger: Logger
    /// For postgres-nio's own messages: errors only.
    let quietLogger: Logger

    /// Listens until the task is cancelled, calling `report` with each event in order.
    func run(_ report: @escaping @Sendable (Event) -> Void) async {
        var delay = Duration.milliseconds(100)
        var lost = false
        while !Task.isCancelled {
            do {
                let connection: PostgresConnection
                do {
                    connection = try await PostgresConnection.connect(
                        configuration: try url.connectionConfiguration(connectTimeout: connectTimeout),
                        id: 0,
                        logger: quietLogger
                    )
                } catch {
                    report(.unreachable(reason: PostgresErrors.describe(error)))
                    throw error
                }
                report(.connected)
                do {
                    try await connection.listen(on: LibrarySchema.channel) { notifications in
                        // Listening from here on: the version read now misses no change.
                        report(.version(try await self.version(on: connection)))
                        if lost { logger.notice("The library database's notifications are back.") }
                        (delay, lost) = (.milliseconds(100), false)
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for try await notification in notifications {
                                    if let version = Int64(notification.payload) { report(.version(version)) }
                                }
                            }
                            group.addTask {
                                while true {
                                    try await Task.sleep(for: Self.heartbeat)
                                    let current = try await withDeadline(min(queryTimeout, Self.heartbeatTimeout)) {
                                        try await self.version(on: connection)
                                    }
                                    report(.version(current))
                                }
                            }
                            defer { group.cancelAll() }
                            try await group.next()
                        }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if !Task.isCancelled, !lost {
                    logger.warning("Lost the library database's notifications: \(PostgresErrors.describe(error))")
                    lost = true
                }
            }
            report(.lost)
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    private func version(on connection: PostgresConnection) async throws -> Int64 {
        var version: Int64 = 0
        for try await value in try await connection.query(LibraryQueries.version, logger: quietLogger)
            .decode(Int64.self)
        {
            version = value
        }
        return version
    }
}
