public import Foundation

/// The body of a request: JSON, a URL-encoded form, multipart form data or raw bytes.
///
/// ```swift
/// Endpoint<Movie>(method: .post, host: "api.example.com", path: "/movies", body: .json(newMovie))
/// Endpoint<Void>(method: .post, host: "example.com", path: "/login", body: .form([("user", "ada")]))
/// ```
///
/// A body sets its own `Content-Type` unless the endpoint's headers already have one.
///
/// Files, sequences of chunks and multipart forms with file parts are *streamed*: read piece by
/// piece while they are sent, never whole in memory (see ``StreamedBody``).
public struct RequestBody: Sendable {
    /// The `Content-Type` this body is sent with.
    public let contentType: String
    private let encode: @Sendable () throws -> Data
    /// Makes the streamed body when the request is prepared; `nil` for bytes in memory.
    private let stream: (@Sendable () throws(RequestError) -> StreamedBody)?
    private var progress: (@Sendable (UploadProgress) -> Void)?

    /// Creates a body from bytes produced when the request is prepared.
    ///
    /// - Parameters:
    ///   - contentType: The media type of the bytes.
    ///   - encode: Produces the bytes; an error it throws becomes ``RequestError/invalidBody(_:reason:)``.
    public init(contentType: String, encode: @escaping @Sendable () throws -> Data) {
        self.contentType = contentType
        self.encode = encode
        self.stream = nil
    }

    private init(contentType: String, stream: @escaping @Sendable () throws(RequestError) -> StreamedBody) {
        self.contentType = contentType
        self.encode = { Data() }
        self.stream = stream
    }

    /// The encoded bytes; empty for a streamed body.
    public func encoded() throws -> Data { try encode() }

    /// The streamed body, made now (a file's size is read here), or `nil` for bytes in memory.
    func streamed() throws(RequestError) -> StreamedBody? {
        guard let stream else { return nil }
        let body = try stream()
        return progress.map { body.reporting($0) } ?? body
    }

    /// Returns a copy that reports its progress as the transport takes its pieces (a body in
    /// memory is handed over in pieces of 256 KiB for this).
    ///
    /// ```swift
    /// let body = RequestBody.file(video).reportingProgress { print($0.bytesSent, "of", $0.expectedBytes ?? -1) }
    /// ```
    public func reportingProgress(_ progress: @escaping @Sendable (UploadProgress) -> Void) -> Self {
        var copy = self
        copy.progress = progress
        return copy
    }

    /// The progress callback of a body in memory, which is then sent as a ``StreamedBody``.
    var progressReport: (@Sendable (UploadProgress) -> Void)? { stream == nil ? progress : nil }

    // MARK: - Streamed bodies

    /// A file, read in pieces while it is sent, with `Content-Length` from its size when the
    /// request is prepared.
    public static func file(_ url: URL, contentType: String = "application/octet-stream") -> Self {
        RequestBody(contentType: contentType) { () throws(RequestError) in
            let size = try fileSize(url)
            return StreamedBody(length: size, isReplayable: true, file: url) { [.file(url, size: size)] }
        }
    }

    /// Chunks from an asynchronous sequence, sent as they come: with `Content-Length` when
    /// `length` is given (the sequence must then yield exactly that many bytes), else with
    /// chunked transfer coding. A sequence is read once, so the request is not retried.
    public static func stream<Chunks: AsyncSequence<Data, any Error> & Sendable>(
        _ chunks: Chunks,
        length: Int64? = nil,
        contentType: String = "application/octet-stream"
    ) -> Self {
        RequestBody(contentType: contentType) { () throws(RequestError) in
            StreamedBody(length: length, isReplayable: false) { [.chunks(chunks)] }
        }
    }

    /// The size of the regular file at `url`, symbolic links followed.
    package static func fileSize(_ url: URL) throws(RequestError) -> Int64 {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            throw .fileSystem(path: url.path, reason: "it cannot be read (\(reason))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .fileSystem(
                path: url.path,
                reason: "it is not a regular file, so its size is not known before sending"
            )
        }
        return Int64(status.st_size)
    }

    // MARK: - Kinds of body

    /// A value encoded as JSON (`application/json`).
    public static func json<Value: Encodable & Sendable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) -> Self {
        RequestBody(contentType: "application/json") { try encoder.encode(value) }
    }

    /// Fields encoded as `application/x-www-form-urlencoded`, in the given order.
    public static func form(_ fields: [(name: String, value: String)]) -> Self {
        let pairs = fields.map { (name: $0.name, value: $0.value) }
        return RequestBody(contentType: "application/x-www-form-urlencoded") {
            Data(PercentEncoding.formEncoded(pairs).utf8)
        }
    }

    /// A multipart form (`multipart/form-data`) with text fields and files; streamed when it has
    /// parts from files (``MultipartForm/append(_:filename:contentType:file:)``).
    public static func multipart(_ form: MultipartForm) -> Self {
        let contentType = "multipart/form-data; boundary=\(form.boundary)"
        guard form.hasFileParts else { return RequestBody(contentType: contentType) { form.encoded() } }
        return RequestBody(contentType: contentType) { () throws(RequestError) in try form.streamed() }
    }

    /// Bytes sent as they are.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> Self {
        RequestBody(contentType: contentType) { data }
    }
}
