import ArgumentParser
import Foundation

/// The address a `--service` option names: an http or https URL with a host.
enum ServiceURL {
    /// The URL in `text`, or a usage error naming the option and giving an example.
    static func parse(_ text: String, option: String = "--service", example: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError("\(option) '\(text)' is not an http or https URL, such as \(example).")
        }
        return url
    }
}
