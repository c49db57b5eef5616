public import Foundation

/// The body of a request: JSON, a URL-encoded form, multipart form data or raw bytes.
///
/// ```swift
/// Endpoint<Movie>(method: .post, host: "api.example.com", path: "/movies", body: .json(newMovie))
/// Endpoint<Void>(method: .post, host: "example.com", path: "/login", body: .form([("user", "ada")]))
/// ```
///
/// A body sets its own `Content-Type` unless the endpoint's headers already have one.
public struct RequestBody: Sendable {
    /// The `Content-Type` this body is sent with.
    public let contentType: String
    private let encode: @Sendable () throws -> Data

    /// Creates a body from bytes produced when the request is prepared.
    ///
    /// - Parameters:
    ///   - contentType: The media type of the bytes.
    ///   - encode: Produces the bytes; an error it throws becomes ``RequestError/invalidBody(_:reason:)``.
    public init(contentType: String, encode: @escaping @Sendable () throws -> Data) {
        self.contentType = contentType
        self.encode = encode
    }

    /// The encoded bytes.
    public func encoded() throws -> Data { try encode() }

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

    /// A multipart form (`multipart/form-data`) with text fields and files.
    public static func multipart(_ form: MultipartForm) -> Self {
        RequestBody(contentType: "multipart/form-data; boundary=\(form.boundary)") { form.encoded() }
    }

    /// Bytes sent as they are.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> Self {
        RequestBody(contentType: contentType) { data }
    }
}
