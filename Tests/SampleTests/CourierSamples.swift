import Courier
import CourierAsyncHTTPClient
import CourierJSON
import Foundation
import HTTPTypes
import Logging
import Synchronization

/// The samples of the `Courier` module (its `///` examples and its DocC articles) and the
/// README's engine samples, each in the context it takes for granted. Nothing calls them: the
/// build compiles them.
enum CourierSamples {
    // MARK: - What the samples take for granted

    struct Movie: Codable, Sendable {
        var title: String
    }

    struct Location: Decodable, Sendable {
        var city: String
    }

    struct SearchResult: Decodable, Sendable {
        var name: String
    }

    struct Record: Decodable, Sendable {
        var id: Int
    }

    enum Store {
        static func search(_ term: String) -> Endpoint<[SearchResult]> {
            Endpoint(host: "itunes.apple.com", path: "/search", query: [URLQueryItem(name: "term", value: term)])
        }
    }

    /// Where formatted JSON goes.
    struct TextOutput {
        func write(contentsOf bytes: some Sequence<UInt8>) {}
    }

    /// Gathers the values of samples that are bare expressions, so that none is unused.
    @resultBuilder
    enum Values {
        static func buildExpression<Value>(_ value: Value) -> [Any] { [value] }
        static func buildBlock(_ components: [Any]...) -> [Any] { components.flatMap { $0 } }
    }

    static func show<Value>(_ value: Value) {}
    static func showError(_ message: String) {}
    static func showNotFound() {}
    static func askForToken() {}
    static func save(_ record: Record) {}
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - Courier.docc/ComingFromURLSession.md

    static func comingFromURLSession(transport: any HTTPTransport, cachesDirectory: URL) throws {
        let client = HTTPClient(
            transport: transport,
            configuration: HTTPClient.Configuration(
                headers: [.acceptLanguage: "de-DE"],
                timeout: .seconds(30),
                cache: try HTTPCache(directory: cachesDirectory),
                cookies: CookieStore()
            )
        )
        _ = client
    }

    // MARK: - ProxySettings and ProxyServer

    static func proxies() throws {
        let proxies = try ProxySettings(environment: ProcessInfo.processInfo.environment)
        let proxy = proxies.proxy(forScheme: "https", host: "api.example.com")
        keep(proxy)
    }

    // swift-format-ignore
    static func proxyServer() throws {
        let proxy = try ProxyServer(url: "http://me:secret@proxy.example:3128")
        print(proxy)   // http://REDACTED@proxy.example:3128
    }

    // MARK: - CookieStore and PublicSuffixList

    static func cookieStore(transport: some HTTPTransport) throws {
        let cookies = try CookieStore(file: URL(fileURLWithPath: "cookies.txt"))
        let client = HTTPClient(transport: transport, configuration: .init(cookies: cookies))
        keep(client)
    }

    // swift-format-ignore
    static func publicSuffixes() {
        let suffixes = PublicSuffixList(rules: "com\nco.uk\n*.ck\n!www.ck")
        print(suffixes.isPublicSuffix("co.uk"))         // true
        print(suffixes.isPublicSuffix("example.co.uk")) // false
    }

    // MARK: - ContentCoding

    // swift-format-ignore
    @Values
    static func acceptEncodingRules() -> [Any] {
        ContentCoding.accepts(.gzip, acceptEncoding: ["br, gzip;q=0.5"])   // true
        ContentCoding.accepts(.gzip, acceptEncoding: ["gzip;q=0, *"])      // false
    }

    static func chooseContentCodings(url: URL) {
        var configuration = HTTPClient.Configuration()
        // Uncompressed bodies only: Accept-Encoding: identity.
        configuration.acceptedEncodings = []
        // One endpoint's own choice wins over the client's.
        let endpoint = Endpoint<Data>(url: url).setting(.acceptEncoding, to: "gzip")
        keep((configuration, endpoint))
    }

    // MARK: - Middleware/Authenticator.swift

    enum AuthenticatorSample {
        struct Token: Sendable {
            var access: String
            var refresh: String
            var expires: Date
        }

        struct SignInRequired: Error {}

        enum OAuth {
            static func refresh(_ refreshToken: String) -> Endpoint<Token> {
                Endpoint<Data>(method: .post, host: "auth.example.com", path: "/token").map { _ in
                    Token(access: "", refresh: refreshToken, expires: Date.distantFuture)
                }
            }
        }

        // swift-format-ignore
        static func authenticator(savedToken: Token?, identity: HTTPClient, transport: some HTTPTransport) {
            let tokens = Authenticator<Token>(
                credential: savedToken,
                apply: { token, request in request.head.headerFields[.authorization] = "Bearer \(token.access)" },
                refresh: { expired in
                    guard let expired else { throw SignInRequired() }
                    return try await identity.send(OAuth.refresh(expired.refresh))
                },
                needsRefresh: { token in token.expires < Date.now.addingTimeInterval(30) }
            )
            let client = HTTPClient(transport: transport, configuration: .init(middleware: [tokens]))
            keep(client)
        }
    }

    // MARK: - Courier.docc/DefiningAnAPI.md

    // swift-format-ignore
    static func configureAClient(transport: some HTTPTransport, token: String) {
        let client = HTTPClient(
            transport: transport,
            configuration: .init(
                baseURL: URL(string: "http://127.0.0.1:8080"),   // a local stand-in, or nil for the real host
                middleware: [Authentication.bearer(token), Retry(maxAttempts: 3)]
            )
        )
        keep(client)
    }

    static func handleErrors(client: HTTPClient) async {
        do throws(RequestError) {
            let movie = try await client.send(MovieDB.movie(550).details)
            show(movie)
        } catch .cancelled {
            // superseded or abandoned: show nothing
        } catch .unauthorized {
            askForToken()
        } catch {
            showError(error.message)
        }
    }

    // MARK: - Courier.docc/Courier.md

    static func overview(transport: some HTTPTransport) async throws {
        let client = HTTPClient(transport: transport)
        let page = try await client.send(MovieDB.movies.topRated(page: 1))
        keep(page)
    }

    // MARK: - Courier.docc/Streaming.md

    static func streamingLines(client: HTTPClient, logURL: URL) async throws {
        let response = try await client.stream(Endpoint<Data>(url: logURL), idleTimeout: .seconds(30))
        for try await line in response.body.lines() {
            print(line)
        }
    }

    static func streamingFormattedJSON(client: HTTPClient, searchURL: URL) async throws {
        let response = try await client.stream(Endpoint<Data>(url: searchURL))
        var formatter = JSONFormatter(picking: ["results", "0"])
        for try await chunk in response.body {
            guard try formatter.format(chunk, to: { print(String(decoding: $0, as: UTF8.self), terminator: "") }) else {
                break  // the value is written: leaving the loop cancels the rest of the transfer
            }
        }
        try formatter.finish { print(String(decoding: $0, as: UTF8.self), terminator: "") }
    }

    static func streamingEvents(client: HTTPClient, pricesURL: URL) async throws {
        for try await event in client.events(Endpoint<Data>(url: pricesURL)) where event.type == "price" {
            show(event.data)
        }
    }

    // MARK: - Courier.docc/CachingResponses.md

    static func cachingResponses(
        transport: some HTTPTransport,
        cacheDirectory: URL,
        endpoint: Endpoint<Movie>
    ) async throws {
        let cache = try HTTPCache(directory: cacheDirectory)
        let client = HTTPClient(transport: transport, configuration: .init(cache: cache))
        let response = try await client.send(client.prepare(endpoint))
        print(response.cacheOutcome ?? .miss)  // HIT, MISS, REVALIDATED or STALE
        await cache.shutdown()  // before the transport's own shutdown
    }

    // MARK: - Endpoint/Endpoint.swift

    static func endpoint(client: HTTPClient) async throws {
        enum Library {
            static func locations(country: String) -> Endpoint<[Location]> {
                Endpoint(
                    host: "library.example.com",
                    path: "/locations",
                    query: [URLQueryItem(name: "country", value: country)]
                )
                .convertingFromSnakeCase()
            }
        }

        let locations = try await client.send(Library.locations(country: "Fr"))
        keep(locations)
    }

    static func endpointMap() {
        let titles: Endpoint<[String]> = Endpoint<[Movie]>(path: "/movies").map { $0.map(\.title) }
        keep(titles)
    }

    static func endpointMapResponse() {
        struct Tagged: Sendable {
            var titles: [String]
            var entityTag: String?
        }
        let tagged = Endpoint<[String]>(path: "/titles").mapResponse { titles, head in
            Tagged(titles: titles, entityTag: head.headerFields[.eTag])
        }
        keep(tagged)
    }

    static func endpointForAURL(client: HTTPClient) async throws {
        let bytes = try await client.send(Endpoint(url: URL(string: "https://example.com/feed.json")!))
        keep(bytes)
    }

    // MARK: - Endpoint/MultipartForm.swift

    static func multipartForm(jpegBytes: Data) {
        var form = MultipartForm()
        form.append("caption", "At the library")
        form.append("photo", filename: "photo.jpg", contentType: "image/jpeg", data: jpegBytes)
        let upload = Endpoint<Void>(method: .post, host: "example.com", path: "/upload", body: .multipart(form))
        keep(upload)
    }

    // MARK: - Endpoint/RequestBody.swift

    @Values
    static func requestBodies(newMovie: Movie) -> [Any] {
        Endpoint<Movie>(method: .post, host: "api.example.com", path: "/movies", body: .json(newMovie))
        Endpoint<Void>(method: .post, host: "example.com", path: "/login", body: .form([("user", "ada")]))
    }

    static func requestBodyProgress(video: URL) {
        let body = RequestBody.file(video).reportingProgress { print($0.bytesSent, "of", $0.expectedBytes ?? -1) }
        keep(body)
    }

    // MARK: - Security/TransportSecurityPolicy.swift

    static func transportSecurityPolicy() {
        let policy = TransportSecurityPolicy.default
            .allowingInsecureHTTP(to: "intranet.example")
            .allowingInsecureHTTP(to: "lan", includingSubdomains: true)
        keep(policy)
    }

    // MARK: - Security/TransportSecurityPolicy.swift, isLoopback

    // swift-format-ignore
    @Values
    static func loopbackAuthorities() -> [Any] {
        TransportSecurityPolicy.isLoopback(authority: "127.0.0.1:8090")   // true
        TransportSecurityPolicy.isLoopback(authority: "[::1]")            // true
        TransportSecurityPolicy.isLoopback(authority: "example.com")      // false
    }

    // MARK: - Security/TransportSecurityPolicy.swift, allows(_:linkedFrom:)

    // swift-format-ignore
    @Values
    static func linkedURLs(policy: TransportSecurityPolicy) -> [Any] {
        let store = URL(string: "https://itunes.apple.com")!
        policy.allows(URL(string: "https://is1-ssl.mzstatic.com/a.jpg")!, linkedFrom: store)  // true
        policy.allows(URL(string: "http://127.0.0.1:9400/a.jpg")!, linkedFrom: store)          // false
    }

    // MARK: - Security/HTTPAuthority.swift

    // swift-format-ignore
    static func httpAuthority() {
        let local = HTTPAuthority(parsing: "127.0.0.1:8090")     // host "127.0.0.1", port 8090
        let named = HTTPAuthority(parsing: "[::1]")               // host "::1", no port
        let trick = HTTPAuthority(parsing: "127.0.0.1:80@evil.example:8090")  // nil
        keep((local, named, trick))
    }

    // MARK: - Security/Redaction.swift

    static func redaction() {
        let shown = Redaction.redactingURL("https://api.example.com/v1?api_key=abc123&page=2")
        // "https://api.example.com/v1?api_key=REDACTED&page=2"
        let header = Redaction.displayedValue(of: HTTPField(name: .authorization, value: "Bearer abc123"))
        // "REDACTED"
        keep(shown)
        keep(header)
    }

    // MARK: - Middleware

    static func authentication(transport: some HTTPTransport, token: String) {
        let client = HTTPClient(
            transport: transport,
            configuration: .init(middleware: [Authentication.bearer(token)])
        )
        keep(client)
    }

    struct RequestID: Middleware {
        func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
            var request = request
            request.head.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
            return try await next(request)
        }
    }

    static func downloadFileName() {
        let url = URL(string: "https://example.com/files/..%2F..%2Fvictim.txt")!
        let name = DownloadFileName.suggested(by: url)  // "_.._victim.txt"
        let other = DownloadFileName.sanitized("../../.bashrc")  // "_.._.bashrc"
        keep((name, other))
    }

    static func curlCommand(client: HTTPClient) throws {
        print(try client.prepare(MovieDB.movie(550).details).curlCommand())
        // curl 'https://api.themoviedb.org/3/movie/550' -H 'Authorization: REDACTED' …
    }

    // swift-format-ignore
    static func requestLogging(transport: some HTTPTransport) {
        var logger = Logger(label: "courier")
        logger.logLevel = .debug
        let client = HTTPClient(transport: transport, configuration: .init(middleware: [RequestLogging(logger: logger)]))
        keep(client)
    }

    static func retry(transport: some HTTPTransport) {
        let client = HTTPClient(transport: transport, configuration: .init(middleware: [Retry(maxAttempts: 4)]))
        keep(client)
    }

    // MARK: - Errors

    static func httpFailure(error: RequestError) {
        if error.httpFailure?.status == 404 { showNotFound() }
    }

    static func requestError(client: HTTPClient) async {
        do throws(RequestError) {
            let movie = try await client.send(MovieDB.movie(550).details)
            show(movie)
        } catch .cancelled {
            // superseded or abandoned: not a failure, show nothing
        } catch {
            print(error.message)
        }
    }

    // MARK: - Streaming

    static func stream(client: HTTPClient, url: URL, handle: FileHandle) async throws {
        let response = try await client.stream(Endpoint<Data>(url: url), idleTimeout: .seconds(30))
        for try await chunk in response.body {
            try handle.write(contentsOf: chunk)
        }
    }

    static func jsonLines(client: HTTPClient, exportURL: URL) async throws {
        let response = try await client.stream(Endpoint<Data>(url: exportURL))
        let records = response.body.jsonLines(of: Record.self, skippingInvalidLines: true)
        for try await record in records { save(record) }
        print(records.skippedCount, "lines skipped")
    }

    static func lines(client: HTTPClient, logURL: URL) async throws {
        for try await line in try await client.stream(Endpoint<Data>(url: logURL)).body.lines() {
            print(line)
        }
    }

    static func serverSentEvents(client: HTTPClient, feedURL: URL) async throws {
        let events = client.events(Endpoint<Data>(url: feedURL)) { reconnect in
            print("reconnecting after \(reconnect.delay)")
        }
        for try await event in events where event.type == "price" {
            show(event.data)
        }
    }

    static func streamedResponse(client: HTTPClient, logURL: URL, output: FileHandle) async throws {
        let response = try await client.stream(Endpoint<Data>(url: logURL))
        for try await chunk in response.body {
            try output.write(contentsOf: chunk)
        }
    }

    // MARK: - Cache

    static func cachePolicy(client: HTTPClient, endpoint: Endpoint<Movie>) async throws {
        let fresh = try await client.send(endpoint.usingCachePolicy(.reloadIgnoringCache))
        let offline = try await client.send(endpoint.usingCachePolicy(.returnCacheDontLoad))
        keep(fresh)
        keep(offline)
    }

    static func httpCache(transport: some HTTPTransport, endpoint: Endpoint<Movie>) async throws {
        let cache = try HTTPCache(directory: URL(fileURLWithPath: "Caches/http"))
        let client = HTTPClient(transport: transport, configuration: .init(cache: cache))
        let again = try await client.send(endpoint)  // a HIT while the response is fresh
        keep(again)
    }

    static func httpCacheShutdown(cache: HTTPCache, transport: AsyncHTTPClientTransport) async throws {
        await cache.shutdown()
        try await transport.shutdown()
    }

    // MARK: - Cache/FNV1a.swift, Cache/LRUCache.swift

    static func fnv1a() {
        let body = Data("[1, 2, 3]".utf8)
        let entityTag = "\"" + String(FNV1a.hash(body), radix: 16) + "\""
        keep(entityTag)
    }

    // swift-format-ignore
    static func lruCache(bytes: Data, url: URL) {
        let images = Mutex(LRUCache<URL, Data>(costLimit: 32 << 20))   // 32 MiB
        images.withLock { $0.set(bytes, for: url, cost: bytes.count) }
        let cached = images.withLock { $0.value(for: url) }
        keep(cached)
    }

    // MARK: - Client/HTTPClient.swift

    // swift-format-ignore
    static func httpClient() async throws {
        let transport = AsyncHTTPClientTransport()         // module CourierAsyncHTTPClient
        let client = HTTPClient(transport: transport)
        let page = try await client.send(MovieDB.movies.topRated(page: 1))
        try await transport.shutdown()
        keep(page)
    }

    // MARK: - Download/HTTPClient+Download.swift

    static func download(client: HTTPClient, fileURL: URL, destination: URL) async throws {
        let result = try await client.download(Endpoint(url: fileURL), to: destination) { progress in
            print(progress.bytesReceived, progress.expectedBytes ?? -1)
        }
        keep(result)
    }

    // MARK: - JSON

    static func jsonFormatter(response: StreamedResponse, output: TextOutput) async throws {
        var formatter = JSONFormatter()
        for try await chunk in response.body {
            try formatter.format(chunk) { piece in output.write(contentsOf: piece) }
        }
        try formatter.finish { piece in output.write(contentsOf: piece) }
    }

    static func jsonFormatterWhole(body: Data, output: TextOutput) throws {
        try JSONFormatter.format(Array(body), sortingKeys: true) { piece in output.write(contentsOf: piece) }
    }

    static func jsonSyntax() {
        do {
            try JSONSyntax.validate(Array(#"[{"title": x}]"#.utf8))
        } catch {
            print(error)  // "line 1, column 12: expected a value, found 'x'"
        }
        let position = JSONSyntax.position(of: ["1", "year"], in: Array(#"[{}, {"year": 1}]"#.utf8))
        // line 1, column 15
        keep(position)
    }

    // swift-format-ignore
    static func jsonValue(client: HTTPClient) async throws {
        let json = try await client.send(Endpoint<JSONValue>(host: "api.example.com", path: "/search"))
        let title = json[path: "results.0.title"]?.stringValue   // or "results[0].title"
        for result in json["results"]?.arrayValue ?? [] {
            print(result["title"]?.stringValue ?? "untitled")
        }
        keep(title)
    }

    static func lossyArray(client: HTTPClient) async throws {
        struct SearchPage: Decodable, Sendable {
            var results: LossyArray<Film>
        }
        let search = Endpoint<SearchPage>(host: MovieDB.host, path: "/3/search/movie").appending(query: "query", "dune")
        let page = try await client.send(search)
        print(page.results.count, "movies;", page.results.skipped.count, "skipped")
    }

    // MARK: - Concurrency/LatestWins.swift

    // swift-format-ignore
    static func latestWins(client: HTTPClient, text: String) async {
        let latest = LatestWins<[SearchResult]>()
        // on every keystroke:
        do throws(RequestError) {
            let results = try await latest.run { () async throws(RequestError) in try await client.send(Store.search(text)) }
            show(results)
        } catch .cancelled {
            // superseded by a newer search: show nothing
        } catch {
            showError(error.message)
        }
    }

    // MARK: - README.md, "Streaming in code"

    // swift-format-ignore
    static func readmeStreaming(client: HTTPClient, logURL: URL, pricesURL: URL) async throws {
        let response = try await client.stream(Endpoint<Data>(url: logURL))      // the head, then the body
        for try await line in response.body.lines() { print(line) }                  // also: jsonLines(of:), raw chunks

        for try await event in client.events(Endpoint<Data>(url: pricesURL)) {      // Server-Sent Events,
            print(event.type, event.data)                                             // reconnecting with Last-Event-ID
        }
    }
}
