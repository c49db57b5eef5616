import ArgumentParser
import Foundation

/// What `courier download` and `courier upload` share: extra header fields, quiet, and the
/// security options.
struct TransferOptions: ParsableArguments {
    @Option(name: [.customShort("H"), .customLong("header")], help: "A header field, 'Name: value'. Repeatable.")
    var headers: [String] = []

    @Flag(name: .shortAndLong, help: "No progress bar and no summary.")
    var quiet = false

    @OptionGroup var security: SecurityOptions

    /// The URL argument: http or https, with a host.
    static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CommandFailure("'\(text)' is not an http or https URL.", status: .usage)
        }
        return url
    }
}
