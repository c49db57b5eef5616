public import Foundation

/// A file name to save a download under when the person did not name one: a single path
/// component that stays in the directory it is written to, whatever the URL or the server says.
///
/// A URL's last path segment is percent-decoded to read as a person expects (`report%20Q3.pdf`
/// is `report Q3.pdf`), so it can spell anything: `..%2F..%2F.profile`, `%2Fetc%2Fpasswd`,
/// `%2E%2E`. The rule keeps one component of it, as careful tools do:
///
/// - `/`, `\`, NUL and control characters (C0, DEL, C1) and the bidirectional controls that
///   make a name read backwards (`U+202E`) become `_`;
/// - leading dots and spaces are removed, so the name is never `.`, `..` or hidden;
/// - it is cut to ``maximumLength`` bytes (at a character boundary), leaving room for the
///   `.download` files beside it;
/// - what is left empty becomes the fallback (`index.html` for a URL that names a directory).
///
/// ```swift
/// let url = URL(string: "https://example.com/files/..%2F..%2Fvictim.txt")!
/// let name = DownloadFileName.suggested(by: url)  // "_.._victim.txt"
/// let other = DownloadFileName.sanitized("../../.bashrc")  // "_.._.bashrc"
/// ```
///
/// The same rule applies to any name a server supplies. Courier does not read
/// `Content-Disposition: filename=`: the name comes from the URL the person gave.
public enum DownloadFileName {
    /// The longest name in UTF-8 bytes: 255 (the usual `NAME_MAX`) less the room `.download.json`
    /// takes for the files kept while a download is partial.
    public static let maximumLength = 240

    /// The name for saving `url`: its last path segment, percent-decoded and made safe by
    /// ``sanitized(_:fallback:)``; `fallback` when the URL names a directory (`/`, `/docs/`) or
    /// nothing is left.
    ///
    /// - Parameters:
    ///   - url: The URL downloaded (before redirects: the name a person expects).
    ///   - fallback: The name for a URL with no usable last segment.
    /// - Returns: One safe path component.
    public static func suggested(by url: URL, fallback: String = "index.html") -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
        let segment = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        return sanitized(segment.removingPercentEncoding ?? segment, fallback: fallback)
    }

    /// `name` as one safe path component: separators, NUL, control and bidirectional control
    /// characters replaced by `_`, leading dots and spaces removed, cut to ``maximumLength``
    /// bytes; `fallback` (itself made safe, or `download`) when nothing is left.
    ///
    /// - Parameters:
    ///   - name: A name from a URL, a server or a file.
    ///   - fallback: The name when nothing of `name` is usable.
    /// - Returns: One safe path component.
    public static func sanitized(_ name: String, fallback: String = "download") -> String {
        if let safe = safeComponent(name) { return safe }
        return safeComponent(fallback) ?? "download"
    }

    private static func safeComponent(_ name: String) -> String? {
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in name.unicodeScalars {
            let safe = isUnsafe(scalar) ? "_" : scalar
            if scalars.isEmpty, safe == "." || safe == " " { continue }
            let length = String(safe).utf8.count
            guard bytes + length <= maximumLength else { break }
            scalars.append(safe)
            bytes += length
        }
        return scalars.isEmpty ? nil : String(scalars)
    }

    /// Separators, NUL, C0 and C1 controls, DEL, and the bidirectional formatting characters.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2F, 0x5C: true  // `/` and `\`
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
        default: false
        }
    }
}
