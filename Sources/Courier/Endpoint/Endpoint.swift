public import Foundation
public import HTTPTypes

/// One request to a web service, and the type its response decodes to.
///
/// An endpoint is a value: build it where you describe your API, send it with
/// ``HTTPClient/send(_:)->Value``, and the compiler knows what comes back.
///
/// ```swift
/// enum Library {
///     static func locations(country: String) -> Endpoint<[Location]> {
///         Endpoint(
///             host: "library.example.com",
///             path: "/locations",
///             query: [URLQueryItem(name: "country", value: country)]
///         )
///             .convertingFromSnakeCase()
///     }
/// }
///
/// let locations = try await client.send(Library.locations(country: "Fr"))
/// ```
///
/// Endpoints whose `Response` is `Decodable` decode JSON; `Endpoint<Void>` accepts any 2xx
/// answer (a 204 among them) and ignores its body; `Endpoint<Data>` returns the raw bytes.
/// A client's base URL, when set, replaces the scheme, host and port and prefixes the path.
public struct Endpoint<Response>: Sendable {
    /// The request method.
    public var method: HTTPRequest.Method
    /// `https` (the default) or `http`.
    public var scheme: String
    /// The host name or IP address; may be empty when the client has a base URL.
    public var host: String
    /// The port, or `nil` for the scheme's default.
    public var port: Int?
    /// The path, starting with `/`. Characters not allowed in a path (spaces, `?`, `#`, non-ASCII)
    /// are percent-encoded; existing `%XX` escapes are kept.
    public var path: String
    /// Query items, percent-encoded strictly (RFC 3986 unreserved characters only) so that `&`,
    /// `+`, `=`, `#` and any script arrive exactly as given.
    public var query: [URLQueryItem]
    /// Header fields sent with the request.
    public var headers: HTTPFields
    /// The request body, if any.
    public var body: RequestBody?
    /// The media types the response may have; `nil` accepts any. Patterns such as `*/*+json`
    /// match any subtype with that suffix. A response without a `Content-Type` is accepted.
    public var acceptedContentTypes: [String]?
    /// The decoder for this endpoint; `nil` uses the client's.
    public var decoder: JSONDecoder?
    /// How an ``HTTPCache`` treats requests for this endpoint.
    public var cachePolicy: CachePolicy = .useProtocolPolicy

    /// A query already percent-encoded, kept verbatim (from ``init(method:url:headers:body:)``).
    var encodedQuery: String?
    let decode: @Sendable (RawResponse, JSONDecoder) throws -> Response

    /// Creates an endpoint with a custom decoding of the response.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - scheme: `https`, or `http` where the security policy allows it.
    ///   - host: The host; empty to use the client's base URL.
    ///   - port: The port, when not the scheme's default.
    ///   - path: The path, appended to the base URL's path.
    ///   - query: The query items, percent-encoded when the request is prepared.
    ///   - headers: Header fields for this request, over the client's defaults.
    ///   - body: The body, if any.
    ///   - acceptedContentTypes: Media types the response must have (`nil`: any).
    ///   - decode: Turns the raw response into the `Response`; errors it throws are reported as
    ///     ``RequestError/decoding(_:)``.
    public init(
        method: HTTPRequest.Method = .get,
        scheme: String = "https",
        host: String = "",
        port: Int? = nil,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        acceptedContentTypes: [String]? = nil,
        decode: @escaping @Sendable (RawResponse, JSONDecoder) throws -> Response
    ) {
        self.method = method
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.acceptedContentTypes = acceptedContentTypes
        self.decode = decode
    }

    // MARK: - Modifying

    /// Returns a copy that decodes with `decoder` instead of the client's.
    public func decoding(with decoder: JSONDecoder) -> Self {
        var copy = self
        copy.decoder = decoder
        return copy
    }

    /// Returns a copy that decodes `snake_case` keys into `camelCase` properties.
    ///
    /// The copy uses a shared decoder with default settings otherwise, in place of the client's:
    /// to combine snake_case with other settings (dates, say), configure a `JSONDecoder` and pass
    /// it to ``decoding(with:)``.
    public func convertingFromSnakeCase() -> Self {
        decoding(with: .snakeCaseConverting)
    }

    /// Returns a copy with the header field set, replacing an existing value.
    public func setting(_ name: HTTPField.Name, to value: String) -> Self {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// Returns a copy that an ``HTTPCache`` treats with `policy`.
    public func usingCachePolicy(_ policy: CachePolicy) -> Self {
        var copy = self
        copy.cachePolicy = policy
        return copy
    }

    /// Returns a copy with the query item appended.
    public func appending(query name: String, _ value: String?) -> Self {
        var copy = self
        copy.query.append(URLQueryItem(name: name, value: value))
        return copy
    }

    /// The same request, its decoded value passed through `transform`: to turn a service's
    /// wire format into the model a program shows.
    ///
    /// ```swift
    /// let titles: Endpoint<[String]> = Endpoint<[Movie]>(path: "/movies").map { $0.map(\.title) }
    /// ```
    ///
    /// An error `transform` throws is reported as a decoding error.
    public func map<Other>(_ transform: @escaping @Sendable (Response) throws -> Other) -> Endpoint<Other> {
        mapResponse { value, _ in try transform(value) }
    }

    /// The same request, its decoded value passed through `transform` with the response's head:
    /// for what a service says in header fields, such as an entity tag or the number of results
    /// on all pages.
    ///
    /// ```swift
    /// struct Tagged: Sendable {
    ///     var titles: [String]
    ///     var entityTag: String?
    /// }
    /// let tagged = Endpoint<[String]>(path: "/titles").mapResponse { titles, head in
    ///     Tagged(titles: titles, entityTag: head.headerFields[.eTag])
    /// }
    /// ```
    ///
    /// An error `transform` throws is reported as a decoding error.
    ///
    /// - Parameter transform: Makes the value the endpoint answers with from the decoded value
    ///   and the response's status and header fields.
    /// - Returns: The same request, answered with what `transform` returns.
    public func mapResponse<Other>(
        _ transform: @escaping @Sendable (Response, HTTPResponse) throws -> Other
    ) -> Endpoint<Other> {
        let decode = self.decode
        var mapped = Endpoint<Other>(
            method: method,
            scheme: scheme,
            host: host,
            port: port,
            path: path,
            query: query,
            headers: headers,
            body: body,
            acceptedContentTypes: acceptedContentTypes
        ) { response, decoder in
            try transform(try decode(response, decoder), response.head)
        }
        mapped.decoder = decoder
        mapped.cachePolicy = cachePolicy
        mapped.encodedQuery = encodedQuery
        return mapped
    }
}

extension Endpoint where Response: Decodable & Sendable {
    /// Creates an endpoint whose JSON response decodes to `Response`.
    ///
    /// Sends `Accept: application/json` unless `headers` says otherwise, and refuses a response
    /// whose content type is not JSON (an HTML error page, say) with
    /// ``RequestError/unexpectedContentType(_:expected:)``.
    public init(
        method: HTTPRequest.Method = .get,
        scheme: String = "https",
        host: String = "",
        port: Int? = nil,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        var headers = headers
        if headers[.accept] == nil { headers[.accept] = "application/json" }
        self.init(
            method: method,
            scheme: scheme,
            host: host,
            port: port,
            path: path,
            query: query,
            headers: headers,
            body: body,
            acceptedContentTypes: MediaType.jsonLike
        ) { response, decoder in
            try decoder.decode(Response.self, from: response.body)
        }
    }
}

extension Endpoint where Response == Void {
    /// Creates an endpoint that succeeds on any 2xx response and ignores its body (a 204, a 202).
    public init(
        method: HTTPRequest.Method = .get,
        scheme: String = "https",
        host: String = "",
        port: Int? = nil,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.init(
            method: method,
            scheme: scheme,
            host: host,
            port: port,
            path: path,
            query: query,
            headers: headers,
            body: body
        ) { _, _ in () }
    }
}

extension Endpoint where Response == Data {
    /// Creates an endpoint that returns the response body's bytes, whatever their type.
    public init(
        method: HTTPRequest.Method = .get,
        scheme: String = "https",
        host: String = "",
        port: Int? = nil,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.init(
            method: method,
            scheme: scheme,
            host: host,
            port: port,
            path: path,
            query: query,
            headers: headers,
            body: body
        ) { response, _ in response.body }
    }

    /// Creates an endpoint for an absolute URL, keeping its query exactly as written.
    ///
    /// ```swift
    /// let bytes = try await client.send(Endpoint(url: URL(string: "https://example.com/feed.json")!))
    /// ```
    public init(method: HTTPRequest.Method = .get, url: URL, headers: HTTPFields = [:], body: RequestBody? = nil) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        self.init(
            method: method,
            scheme: components?.scheme ?? "",
            host: components?.encodedHost ?? "",
            port: components?.port,
            path: components?.percentEncodedPath ?? "",
            headers: headers,
            body: body
        )
        encodedQuery = components?.percentEncodedQuery
    }
}

extension JSONDecoder {
    /// Shared by every endpoint that asks for snake_case conversion; JSONDecoder is safe to share
    /// once configured.
    static let snakeCaseConverting: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()
}
