import ArgumentParser
import Foundation

/// `courier`: fetch data from web services and show it.
@main
struct CourierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Fetch data from web services and show it.",
        discussion: ExitStatus.help,
        version: CourierCommand.version,
        subcommands: [
            Get.self, Download.self, Upload.self, Replay.self, FeedCommand.self, LsRemote.self, Serve.self,
            LibraryCommand.self, Locations.self, Catalog.self, StoreCommand.self, FamilyCommand.self,
            MoviesCommand.self, AppCommand.self,
        ]
    )

    /// The version `courier --version` prints: the newest in CHANGELOG.md (a test keeps them
    /// the same).
    static let version = "4.0.0"

    /// Parses the arguments, runs the command, and exits with Courier's exit statuses
    /// (ArgumentParser's own usage status, 64, becomes 2).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { Terminal.error("courier: \(failure.message)") }
            Foundation.exit(failure.status.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                Terminal.output(fullMessage(for: error))
                Foundation.exit(0)
            }
            Terminal.error(fullMessage(for: error))
            Foundation.exit(code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue)
        }
    }
}
