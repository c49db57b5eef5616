public import Foundation
public import HTTPTypes

/// Sends endpoints through a transport and returns their decoded responses.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()         // module CourierAsyncHTTPClient
/// let client = HTTPClient(transport: transport)
/// let page = try await client.send(MovieDB.movies.topRated(page: 1))
/// try await transport.shutdown()
/// ```
///
/// The client is a value: cheap to copy, safe to share between tasks. For every request it
/// builds the URL (a configured base URL overrides the endpoint's scheme, host and port), runs
/// the middleware, checks the ``TransportSecurityPolicy`` on every hop, follows redirects,
/// maps error statuses to ``RequestError`` and decodes the body.
///
/// ## Topics
/// - ``send(_:)->Value``
/// - ``send(_:)->RawResponse``
/// - ``response(for:)``
/// - ``Configuration``
public struct HTTPClient: Sendable {
    /// How a client builds, limits and decodes requests.
    public struct Configuration: Sendable {
        /// Replaces every endpoint's scheme, host and port, and prefixes its path — to point a
        /// program at a local stand-in of the real service.
        public var baseURL: URL?
        /// The decoder for endpoints that do not bring their own.
        public var decoder: JSONDecoder
        /// Header fields sent with every request; an endpoint's own fields win.
        public var headers: HTTPFields
        /// Which hosts may be reached over cleartext HTTP.
        public var securityPolicy: TransportSecurityPolicy
        /// The total time one request may take, redirects included; `nil` for none.
        public var timeout: Duration?
        /// The largest response body accepted, in bytes: the decoded body, however few bytes
        /// arrived compressed.
        public var maxResponseSize: Int
        /// How many redirects to follow; 0 returns 3xx responses as they are.
        public var maxRedirects: Int
        /// Middleware, outermost first: the first sees the request first and the response last.
        public var middleware: [any Middleware]
        /// The HTTP cache (RFC 9111, as a private cache) the client answers from where the rules
        /// allow; `nil` (the default) for none. It is a stage of the client, inside the
        /// ``middleware`` (so ``Retry`` retries only real network attempts and an
        /// ``Authenticator``'s credential is seen by the cache's rules) and outside the redirects.
        /// A download reads it without filling it; a stream bypasses it. Call
        /// ``HTTPCache/shutdown()`` before shutting down the transport. See <doc:CachingResponses>.
        public var cache: HTTPCache?
        /// The cache's clock: `Date()`, or a test's.
        var cacheClock: @Sendable () -> Date = { Date() }
        /// The content codings asked for in `Accept-Encoding`, which every transport undoes as
        /// the body arrives; `gzip` and `deflate` by default, `[]` for uncompressed bodies only
        /// (`identity`). An endpoint's own `Accept-Encoding` wins; a request for a range always
        /// asks for `identity`, so that its byte offsets count the uncompressed bytes.
        /// ``maxResponseSize`` limits the decoded body. Codings other than gzip and deflate are
        /// asked for as given, and their bodies handed over as they came unless the transport
        /// knows them (Foundation's does `br`). See ``ContentCoding``.
        public var acceptedEncodings: [ContentCoding]
        /// The cookies the client keeps and sends, by the rules of RFC 6265bis; `nil` (the
        /// default) for none: every request goes without the store's cookies, and `Set-Cookie`
        /// is not kept. Each redirect hop gets the cookies of its own URL. See ``CookieStore``.
        public var cookies: CookieStore?

        /// Creates a configuration; the defaults suit talking to public JSON APIs.
        public init(
            baseURL: URL? = nil,
            decoder: JSONDecoder = JSONDecoder(),
            headers: HTTPFields = [.userAgent: "Courier/1.0"],
            securityPolicy: TransportSecurityPolicy = .default,
            timeout: Duration? = .seconds(60),
            maxResponseSize: Int = 16 << 20,
            maxRedirects: Int = 10,
            middleware: [any Middleware] = [],
            cache: HTTPCache? = nil,
            acceptedEncodings: [ContentCoding] = [.gzip, .deflate],
            cookies: CookieStore? = nil
        ) {
            self.baseURL = baseURL
            self.decoder = decoder
            self.headers = headers
            self.securityPolicy = securityPolicy
            self.timeout = timeout
            self.maxResponseSize = maxResponseSize
            self.maxRedirects = maxRedirects
            self.middleware = middleware
            self.cache = cache
            self.acceptedEncodings = acceptedEncodings
            self.cookies = cookies
        }
    }

    /// The configuration the client was created with.
    public let configuration: Configuration
    /// The transport requests go through.
    public let transport: any HTTPTransport
    private let base: BaseURL?
    private let pipeline: Middleware.Next

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests; you shut it down when done.
    ///   - configuration: Base URL, decoder, limits, policy and middleware.
    public init(transport: any HTTPTransport, configuration: Configuration = Configuration()) {
        self.transport = transport
        self.configuration = configuration
        self.base = configuration.baseURL.map(BaseURL.init)
        self.pipeline = Self.pipeline(to: transport, configuration: configuration, cache: .answering)
    }

    /// How a pipeline uses the client's cache.
    enum CacheStage {
        /// Answers from the cache and fills it: ``send(_:)->RawResponse`` and what builds on it.
        case answering
        /// Reads the cache and writes what it can answer to `writer`, never filling it: downloads.
        case downloading(DownloadWriter)
        /// Leaves the cache out: streams, whose bodies are neither served from nor stored in it.
        case bypassed
    }

    /// The stages a request goes through, outermost first: the middleware, the cache, the
    /// redirect follower (which checks the security policy on every hop), the cookie store,
    /// and `transport`.
    static func pipeline(
        to transport: any HTTPTransport,
        configuration: Configuration,
        cache stage: CacheStage
    ) -> Middleware.Next {
        // Cookies go and come at each hop, inside the redirects: a hop gets its own URL's.
        let core = RedirectFollower(
            transport: configuration.cookies.map { CookieTransport(base: transport, store: $0) } ?? transport,
            policy: configuration.securityPolicy,
            maxRedirects: configuration.maxRedirects
        )
        var pipeline: Middleware.Next = { request async throws(RequestError) -> RawResponse in
            try await core.send(request)
        }
        if let cache = configuration.cache {
            let next = pipeline
            let caching = Caching(cache, now: configuration.cacheClock)
            switch stage {
            case .answering:
                // The rest of the chain outlives the call: the cache may revalidate with it in
                // the background.
                pipeline = { request async throws(RequestError) -> RawResponse in
                    try await caching.send(request, next: next, background: next)
                }
            case .downloading(let writer):
                let download = CachedDownload(caching: caching, writer: writer)
                pipeline = { request async throws(RequestError) -> RawResponse in
                    try await download.send(request, next: next)
                }
            case .bypassed:
                break
            }
        }
        for middleware in configuration.middleware.reversed() {
            let next = pipeline
            pipeline = { request async throws(RequestError) -> RawResponse in
                try await middleware.send(request, next: next)
            }
        }
        // One deadline for the whole request: every middleware, retry and redirect hop shares it.
        let inner = pipeline
        let hasCookieStore = configuration.cookies != nil
        return { request async throws(RequestError) -> RawResponse in
            var request = request
            request.hasCookieStore = hasCookieStore
            if request.deadline == nil, let timeout = request.timeout {
                // Within a century, so that no timeout can overflow the clock's arithmetic.
                request.deadline = .now + Swift.min(Swift.max(timeout, .zero), .seconds(3_155_760_000))
            }
            return try await inner(request)
        }
    }

    // MARK: - Sending

    /// Sends the endpoint and returns its decoded response.
    ///
    /// - Returns: The value the endpoint's response decodes to.
    /// - Throws: ``RequestError``; ``RequestError/cancelled`` when the task is cancelled.
    public func send<Value>(_ endpoint: Endpoint<Value>) async throws(RequestError) -> Value {
        try await response(for: endpoint).value
    }

    /// Sends the endpoint and returns its decoded value with the response's status and headers
    /// (for paging totals, ETags, rate limits).
    public func response<Value>(for endpoint: Endpoint<Value>) async throws(RequestError) -> DecodedResponse<Value> {
        let request = try prepare(endpoint)
        let raw = try await pipeline(request)
        let value = try decode(raw, for: endpoint, request: request)
        var response = DecodedResponse(value: value, head: raw.head, url: raw.url)
        response.cacheOutcome = raw.cacheOutcome
        return response
    }

    /// Runs a prepared request through the middleware, security policy and redirects, and returns
    /// the response whatever its status.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        try await pipeline(request)
    }

    // MARK: - Preparing

    /// Builds the request the client would send for `endpoint`: URL, header fields, body.
    ///
    /// - Throws: ``RequestError/invalidURL(_:reason:)`` or ``RequestError/invalidBody(_:reason:)``.
    public func prepare<Value>(_ endpoint: Endpoint<Value>) throws(RequestError) -> PreparedRequest {
        let givenScheme = base?.scheme ?? endpoint.scheme
        let scheme = givenScheme == "https" || givenScheme == "http" ? givenScheme : givenScheme.lowercased()
        let host = IDNA.asciiHost(base?.host ?? endpoint.host)
        let port = base == nil ? endpoint.port : base?.port
        let rawPath = (base?.path ?? "") + endpoint.path
        var path = PercentEncoding.encodePath(rawPath.utf8.first == UInt8(ascii: "/") ? rawPath : "/" + rawPath)
        let query = [endpoint.encodedQuery, endpoint.query.isEmpty ? nil : PercentEncoding.query(endpoint.query)]
            .compactMap { $0 }.joined(separator: "&")
        if !query.isEmpty { path += "?" + query }

        let authority = Authority.format(host: host, port: port)
        func invalid(_ reason: String) -> RequestError {
            .invalidURL(Redaction.redactingURL("\(scheme)://\(authority)\(path)"), reason: reason)
        }
        guard scheme == "https" || scheme == "http" else { throw invalid("the scheme must be http or https") }
        guard !host.isEmpty else {
            throw invalid("there is no host; give the endpoint a host or the client a base URL")
        }
        if let problem = RequestTarget.problem(withHost: host) { throw invalid(problem) }
        if let port, !(1...65535).contains(port) { throw invalid("the port \(port) is outside 1…65535") }

        var fields = configuration.headers
        for field in endpoint.headers where fields.contains(where: { $0.name == field.name }) {
            fields[field.name] = nil
        }
        fields.append(contentsOf: endpoint.headers)
        if fields[.acceptEncoding] == nil {
            fields[.acceptEncoding] = ContentCoding.acceptEncoding(configuration.acceptedEncodings)
        }
        var request = PreparedRequest(
            head: HTTPRequest(
                method: endpoint.method,
                scheme: scheme,
                authority: authority,
                path: path,
                headerFields: fields
            ),
            timeout: configuration.timeout,
            maxResponseSize: configuration.maxResponseSize
        )
        request.cachePolicy = endpoint.cachePolicy
        if let body = endpoint.body {
            if let streamed = try body.streamed() {
                request.streamedBody = streamed
            } else {
                do {
                    request.body = try body.encoded()
                } catch {
                    throw .invalidBody(request.summary, reason: String(describing: error))
                }
                if let report = body.progressReport, let bytes = request.body {
                    // Handed over in pieces, so that the progress moves as they are sent.
                    request.streamedBody = StreamedBody(inMemory: bytes).reporting(report)
                    request.body = nil
                }
            }
            if request.head.headerFields[.contentType] == nil {
                request.head.headerFields[.contentType] = body.contentType
            }
        }
        return request
    }
}

/// A decoded value with the status and header fields of the response it came from.
public struct DecodedResponse<Value> {
    /// The decoded value.
    public var value: Value
    /// Status and header fields.
    public var head: HTTPResponse
    /// The URL that answered, after redirects.
    public var url: String
    /// Where the response came from when an ``HTTPCache`` took part; `nil` otherwise.
    public var cacheOutcome: CacheOutcome?
}

extension DecodedResponse: Sendable where Value: Sendable {}

/// The parts of a client's base URL, taken apart once.
private struct BaseURL: Sendable {
    var scheme: String
    var host: String
    var port: Int?
    var path: String

    init(_ url: URL) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        scheme = components?.scheme ?? ""
        host = components?.encodedHost ?? ""
        port = components?.port
        var path = components?.percentEncodedPath ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }
}
