import Foundation
import HTTPTypes

extension PreparedRequest {
    /// The request as a `curl` command line, to reproduce it in a shell.
    ///
    /// ```swift
    /// print(try client.prepare(MovieDB.movie(550).details).curlCommand())
    /// // curl 'https://api.themoviedb.org/3/movie/550' -H 'Authorization: REDACTED' …
    /// ```
    ///
    /// - Parameter redactingSecrets: Replace credentials (secret header fields, secret query
    ///   items and form fields) with `REDACTED`. On by default.
    public func curlCommand(redactingSecrets: Bool = true) -> String {
        var parts = ["curl"]
        switch head.method {
        case .get: break
        case .head: parts.append("--head")
        default: parts += ["-X", head.method.rawValue]
        }
        parts.append(Self.quoted(redactingSecrets ? Redaction.redactingURL(url) : url))
        for field in head.headerFields {
            parts += [
                "-H", Self.quoted("\(field.name): \(Redaction.displayedValue(of: field, redacting: redactingSecrets))"),
            ]
        }
        if let body, !body.isEmpty {
            if var text = String(data: body, encoding: .utf8) {
                if redactingSecrets, let type = head.headerFields[.contentType],
                    MediaType.essence(of: type) == "application/x-www-form-urlencoded"
                {
                    text = Redaction.redactingQuery(Substring(text))
                }
                parts += ["--data-binary", Self.quoted(text)]
            } else {
                parts += ["--data-binary", "@body.bin", "# \(body.count) bytes of binary data, not shown"]
            }
        }
        return parts.joined(separator: " ")
    }

    /// A POSIX shell single-quoted word.
    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
