public import Courier

/// Why an image could not be loaded.
public enum ImageError: Error, Sendable, CustomStringConvertible {
    /// The request failed: network, status, size limit… with the engine's explanation.
    case request(RequestError)
    /// The server answered, but not with a PNG, JPEG, GIF or WebP image.
    case notAnImage(url: String, reason: ImageHeaderError)
    /// This caller stopped waiting (its task was cancelled).
    case cancelled

    /// One line for a person: what failed and what to do.
    public var description: String {
        switch self {
        case .request(let error):
            error.message
        case .notAnImage(let url, let reason):
            "\(url) is not an image: \(reason). Check the URL; it may point to a web page."
        case .cancelled:
            "The image load was cancelled."
        }
    }
}
