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
        /// The part's bytes; empty for a part read from a file.
        public var data: Data
        /// The file the part's bytes are read from while the form is sent, if any.
        public var file: URL?
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

    /// Appends a file read while the form is sent: the form is then a streamed body, never
    /// whole in memory.
    public mutating func append(_ name: String, filename: String, contentType: String, file: URL) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, data: Data(), file: file))
    }

    // MARK: - Encoding

    /// Whether a part is read from a file.
    var hasFileParts: Bool { parts.contains { $0.file != nil } }

    /// The encoded body, files read into it (a file that cannot be read gives an empty part:
    /// send the form with ``RequestBody/multipart(_:)``, which streams it and reports that).
    public func encoded() -> Data {
        var body = Data()
        for part in parts {
            body.append(head(of: part))
            body.append(part.file.flatMap { FileManager.default.contents(atPath: $0.path) } ?? part.data)
            body.append(contentsOf: "\r\n".utf8)
        }
        body.append(contentsOf: "--\(boundary)--\r\n".utf8)
        return body
    }

    /// The form as a streamed body: each file part read in pieces, its length known up front.
    func streamed() throws(RequestError) -> StreamedBody {
        var segments: [StreamedBody.Segment] = []
        var length: Int64 = 0
        for part in parts {
            let head = head(of: part)
            segments.append(.bytes(head))
            length += Int64(head.count)
            if let file = part.file {
                let size = try RequestBody.fileSize(file)
                segments.append(.file(file, size: size))
                length += size
            } else {
                segments.append(.bytes(part.data))
                length += Int64(part.data.count)
            }
            segments.append(.bytes(Data("\r\n".utf8)))
            length += 2
        }
        let end = Data("--\(boundary)--\r\n".utf8)
        segments.append(.bytes(end))
        length += Int64(end.count)
        return StreamedBody(length: length, isReplayable: true) { [segments] in segments }
    }

    /// The boundary line and header fields before a part's bytes.
    private func head(of part: Part) -> Data {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
        if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
        head += "\r\n"
        if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        return Data(head.utf8)
    }

    /// Escapes a name for a quoted-string as HTML forms do: `"` as `%22`, line breaks as `%0D`/`%0A`.
    private static func quoted(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
