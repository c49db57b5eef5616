import ArgumentParser
import CourierCassettes
import CourierReplay
import CourierServerKit
import Foundation
import Logging

/// `courier replay CASSETTE…`: recorded responses served on 127.0.0.1, so a program can run
/// against them offline.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Serve the responses recorded in cassettes (courier get --record) on 127.0.0.1.",
        discussion: """
            A request gets the recorded response of the same method, path, query and body, whatever \
            host it was recorded from; repeated requests replay in recorded order. A request with \
            no recording gets 404 naming it. The origins the cassette was recorded from are \
            replaced by the replay's own address in recorded header values and text bodies, so \
            it replays on any port. A GET or HEAD whose If-None-Match names the recorded ETag \
            (or whose If-Modified-Since is no earlier than its Last-Modified) gets 304. \
            Ctrl-C stops it.

            Examples:
              courier get https://api.example.com/movies --record movies.json
              courier replay movies.json --port 9000
              courier get http://127.0.0.1:9000/movies
            """
    )

    @Argument(help: "Cassette files (JSON) to serve; their recordings are combined.")
    var cassettes: [String]

    @OptionGroup var server: ServerOptions

    func validate() throws {
        guard !cassettes.isEmpty else { throw ValidationError("Give at least one cassette file.") }
    }

    func run() async throws {
        var combined = Cassette()
        for path in cassettes {
            do {
                combined.interactions += try Cassette.load(from: URL(fileURLWithPath: path)).interactions
            } catch {
                throw CommandFailure(error.description, status: .usage)
            }
        }
        let count = combined.interactions.count
        let replay = ReplayServer(
            combined,
            host: server.host,
            logger: server.logger(label: "courier.replay", default: .notice)
        )
        let port = server.port ?? 8080
        do {
            try await replay.run(port: port, limits: server.limits, handlingSignals: server.handlesSignals) { url in
                Terminal.output("Replaying \(count) recorded exchanges on \(url). Ctrl-C stops it.")
            }
        } catch let error as ListenError {
            throw CommandFailure(cannotListenOn: error.address, error.reason)
        }
        Terminal.output("Stopped.")
    }
}
