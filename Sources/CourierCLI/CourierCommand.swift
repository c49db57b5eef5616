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
    static let version = "5.0.0"

    /// Parses the arguments, runs the command, and exits with Courier's exit statuses.
    static func main() async {
        let status = await run(Array(CommandLine.arguments.dropFirst()))
        Foundation.exit(status)
    }

    /// Parses `arguments`, runs the command and returns Courier's exit status (ArgumentParser's
    /// own usage status, 64, becomes 2), with what went wrong written to standard error.
    /// Within `context`, the command sees the context's environment and input and writes to
    /// it instead of the process's streams.
    static func run(_ arguments: [String], context: CommandContext? = nil) async -> Int32 {
        guard let context else { return await parseAndRun(arguments) }
        return await CommandContext.$current.withValue(context) { await parseAndRun(arguments) }
    }

    private static func parseAndRun(_ arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { Terminal.error("courier: \(failure.message)") }
            return failure.status.rawValue
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                Terminal.output(fullMessage(for: error))
                return 0
            }
            Terminal.error(fullMessage(for: error))
            return code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue
        }
    }
}
