import ArgumentParser
import LibraryServer

/// `--idle-timeout`, `--request-timeout` and `--max-connections`, shared by the commands that serve (`serve`,
/// `replay`, `app`).
struct ServerOptions: ParsableArguments {
    /// Seconds a connection may stay silent: a second to a day.
    static let idleTimeouts: ClosedRange<Double> = 1...86_400
    /// Connections served at once.
    static let connectionCounts = 1...100_000

    @Option(
        help: "Close a connection that sends nothing for this many seconds (\(NumericOption.describe(idleTimeouts))).",
        transform: NumericOption.seconds(in: idleTimeouts)
    )
    var idleTimeout: Double = 30

    @Option(
        help: """
            Close a connection whose client takes longer than this many seconds to send a whole request \
            (\(NumericOption.describe(idleTimeouts))).
            """,
        transform: NumericOption.seconds(in: idleTimeouts)
    )
    var requestTimeout: Double = 60

    @Option(
        help: "Serve at most this many connections at once (\(NumericOption.describe(connectionCounts))).",
        transform: NumericOption.integer(in: connectionCounts)
    )
    var maxConnections = ConnectionLimits.default.maximumConnections

    var limits: ConnectionLimits {
        ConnectionLimits(
            idleTimeout: .milliseconds(Int64((idleTimeout * 1000).rounded())),
            requestTimeout: .milliseconds(Int64((requestTimeout * 1000).rounded())),
            maximumConnections: maxConnections
        )
    }
}
