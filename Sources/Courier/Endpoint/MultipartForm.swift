public import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and files in order.
///
/// ```swift
/// var form = MultipartForm()
/// form.append("caption", "At the library")
/// form.append("photo", filename: "photo.jpg", contentType: "image/jpeg", data: jpegBytes)
/// let upload = Endpoint<Void>(method: .post, host: "example.com", path: "/upload", body: .multipart(form))
/// ```
public struct MultipartForm: Sendable {
    /// One part of the form.
    public struct Part: Sendable {
        /// The form field name.
        public var name: String
        /// The file name, for file parts.
        public var filename: String?
        /// The part's media type, for file parts.
        public var contentType: String?
        /// The part's bytes.
        public var data: Data
    }

    /// The boundary between parts; random unless given.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Creates an empty form.
    public init(boundary: String = "courier-" + UUID().uuidString) {
        self.boundary = boundary
    }

    // MARK: - Adding parts

    /// Appends a text field.
    public mutating func append(_ name: String, _ value: String) {
        parts.append(Part(name: name, data: Data(value.utf8)))
    }

    /// Appends a file.
    public mutating func append(_ name: String, filename: String, contentType: String, data: Data) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, data: data))
    }

    // MARK: - Encoding

    /// The encoded body.
    public func encoded() -> Data {
        var body = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
            head += "\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "\r\n"
            body.append(contentsOf: head.utf8)
            body.append(part.data)
            body.append(contentsOf: "\r\n".utf8)
        }
        body.append(contentsOf: "--\(boundary)--\r\n".utf8)
        return body
    }

    /// Escapes a name for a quoted-string as HTML forms do: `"` as `%22`, line breaks as `%0D`/`%0A`.
    private static func quoted(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
