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
    /// - Parameter redactingSecrets: Replace credentials with `REDACTED` by the one rule of
    ///   ``Redaction``: secret header fields, the secrets of the URL, and of the body
    ///   (``Redaction/redactingBody(_:contentType:)``: form fields, JSON members, multipart
    ///   parts and URLs in text). On by default.
    public func curlCommand(redactingSecrets: Bool = true) -> String {
        var parts = ["curl"]
        switch head.method {
        case .get: break
        case .head: parts.append("--head")
        default: parts += ["-X", head.method.rawValue]
        }
        parts.append(Self.shellQuoted(redactingSecrets ? Redaction.redactingURL(url) : url))
        var fields = head.headerFields
        // curl asks for compressed bodies, and decompresses them, with --compressed; without it
        // it asks for none: `identity`.
        var compressed = false
        let asked = fields[values: .acceptEncoding]
        // Repeated fields read as one list joined by commas (RFC 9110 §5.3).
        if !asked.isEmpty, let codings = ContentCoding.list(asked.joined(separator: ",")),
            codings.allSatisfy({ $0 == .identity || $0.isDecodable })
        {
            fields[.acceptEncoding] = nil
            compressed = [ContentCoding.gzip, .deflate].contains { ContentCoding.accepts($0, acceptEncoding: asked) }
        }
        for field in fields {
            parts += [
                "-H",
                Self.shellQuoted("\(field.name): \(Redaction.displayedValue(of: field, redacting: redactingSecrets))"),
            ]
        }
        if compressed { parts.append("--compressed") }
        if var body, !body.isEmpty {
            if redactingSecrets { body = Redaction.redactingBody(body, contentType: head.headerFields[.contentType]) }
            if let text = String(data: body, encoding: .utf8) {
                parts += ["--data-binary", Self.shellQuoted(text)]
            } else {
                parts += ["--data-binary", "@body.bin", "# \(body.count) bytes of binary data, not shown"]
            }
        }
        return parts.joined(separator: " ")
    }

    /// A POSIX shell single-quoted word.
    package static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
