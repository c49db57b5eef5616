import ArgumentParser
import CourierServerKit
import Foundation
import Logging

/// What every command that serves (`serve`, `replay`, `app`) takes: where to listen, what to
/// log, and the limits that shed idle and trickling clients.
struct ServerOptions: ParsableArguments {
    /// Seconds a connection may stay silent: a second to a day.
    static let idleTimeouts: ClosedRange<Double> = 1...86_400
    /// Connections served at once.
    static let connectionCounts = 1...100_000

    @Option(
        help: """
            The address to listen on: 127.0.0.1 for this machine only; another address or 0.0.0.0 \
            makes the server reachable from other machines.
            """
    )
    var host = "127.0.0.1"

    @Option(
        help: """
            The port to listen on (\(NumericOption.describe(NumericOption.ports))); 0 picks a free one. \
            Default: 8080 for serve ($PORT when set) and replay, 8090 for app.
            """,
        transform: NumericOption.integer(in: NumericOption.ports)
    )
    var port: Int?

    @Option(
        help: """
            The lowest level logged to standard error: trace, debug, info (access logs), notice, warning, \
            error. Default: info for serve, notice for app and replay.
            """
    )
    var logLevel: String?

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

    func validate() throws {
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--log-level '\(logLevel)' is not one of \(levels).")
        }
    }

    /// A logger to standard error at `--log-level`, else at the command's default level.
    func logger(label: String, default level: Logger.Level) -> Logger {
        Terminal.logger(label: label, level: logLevel.flatMap(Logger.Level.init(rawValue:)) ?? level)
    }

    /// Whether the server stops at SIGINT and SIGTERM: when the command is the process. A server
    /// run inside another program (a test, with a ``CommandContext``) stops when its task is
    /// cancelled, and leaves the process's signal handlers alone.
    var handlesSignals: Bool { CommandContext.current == nil }

    var limits: ConnectionLimits {
        ConnectionLimits(
            idleTimeout: .milliseconds(Int64((idleTimeout * 1000).rounded())),
            requestTimeout: .milliseconds(Int64((requestTimeout * 1000).rounded())),
            maximumConnections: maxConnections
        )
    }
}
