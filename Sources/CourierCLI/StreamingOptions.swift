import ArgumentParser
import Courier
import Foundation
import HTTPTypes

/// `courier get`'s ways of printing a body as it arrives: `--stream`, `--lines`, `--events`,
/// `--json-lines`.
struct StreamingOptions: ParsableArguments {
    /// How the body is printed.
    enum Mode {
        case bytes, lines, events, jsonLines
    }

    @Flag(help: "Write the body as it arrives, with no size limit.")
    var stream = false

    @Flag(help: "Print the body one line at a time as it arrives (control characters escaped).")
    var lines = false

    @Flag(
        help:
            "Read Server-Sent Events: one JSON object per event and line, reconnecting as browsers do (reconnections are reported on standard error)."
    )
    var events = false

    @Flag(name: .customLong("json-lines"), help: "Pretty-print each value of a JSON Lines (NDJSON) body as it arrives.")
    var jsonLines = false

    /// The mode asked for, if any.
    var mode: Mode? {
        [(stream, Mode.bytes), (lines, .lines), (events, .events), (jsonLines, .jsonLines)].first { $0.0 }?.1
    }

    /// Refuses two modes at once, or a mode with an option that needs the whole body.
    func validate(with others: [(name: String, given: Bool)]) throws {
        let given = [("--stream", stream), ("--lines", lines), ("--events", events), ("--json-lines", jsonLines)]
            .filter(\.1).map(\.0)
        if given.count > 1 { throw ValidationError("Choose one of \(given.joined(separator: ", ")).") }
        guard let mode = given.first, let other = others.first(where: \.given) else { return }
        throw ValidationError("\(mode) prints the body as it arrives, so it cannot be used with \(other.name).")
    }

    /// Sends the endpoint and prints its body in `mode` as it arrives; Ctrl-C ends the program
    /// at once with status 130, everything received so far printed.
    func run(
        _ mode: Mode,
        _ endpoint: Endpoint<Data>,
        with client: HTTPClient,
        idleTimeout: Duration,
        head printHead: (HTTPResponse) -> Void
    ) async throws {
        // The process's own signal, only when the command is the process.
        if CommandContext.current == nil { signal(SIGINT) { _ in _exit(130) } }
        if mode == .events {
            let options = EventStreamOptions(idleTimeout: idleTimeout)
            let events = client.events(endpoint, options: options) { reconnect in
                let id = reconnect.lastEventID.isEmpty ? "" : " from event \(reconnect.lastEventID)"
                let cause = reconnect.cause.map { " (\($0.message))" } ?? " (the server closed the stream)"
                let seconds = (reconnect.delay / .milliseconds(1)).rounded() / 1000
                Terminal.error("courier: reconnecting in \(seconds) s\(id)\(cause)")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for try await event in events {
                Terminal.output(json: String(decoding: try encoder.encode(event), as: UTF8.self))
            }
            return
        }
        let response = try await client.stream(endpoint, idleTimeout: idleTimeout)
        printHead(response.head)
        switch mode {
        case .bytes:
            for try await chunk in response.body { Terminal.write(chunk) }
        case .lines:
            for try await line in response.body.lines() { Terminal.output(line) }
        case .jsonLines:
            for try await value in response.body.jsonLines(of: JSONValue.self) {
                Terminal.output(json: value.formatted())
            }
        case .events:
            break
        }
    }
}
