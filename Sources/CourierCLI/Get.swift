import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierCassettes
import CourierJSON
import Foundation
import HTTPTypes
import Logging

#if URLSessionTransport
import CourierURLSession
#endif

/// `courier get URL`: one request, the body on standard output.
struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Send one request and print the response body.",
        discussion: """
            Examples:
              courier get https://itunes.apple.com/search?term=swift --pick results.0.trackName
              courier get http://intranet.example/api --allow-http intranet.example
              courier get https://api.example.com/items -H 'Authorization: Bearer …' --curl

            \(ExitStatus.help)
            """
    )

    enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
        case asyncHTTPClient = "async-http-client"
        case urlSession = "urlsession"
    }

    @Argument(help: "The URL to request (http or https).")
    var url: String

    @Option(name: [.customShort("H"), .customLong("header")], help: "A header field, 'Name: value'. Repeatable.")
    var headers: [String] = []

    @Option(
        name: [.customShort("X"), .long],
        help: "The method: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (default GET, or POST with --data)."
    )
    var method: String?

    @Option(
        name: [.customShort("d"), .long],
        help:
            "The request body; @FILE reads a file, @- standard input. JSON is sent as application/json, anything else as a form."
    )
    var data: String?

    @Option(
        name: .customLong("data-binary"),
        help:
            "The request body sent as it is, as application/octet-stream; @FILE streams a file, @- reads standard input."
    )
    var dataBinary: String?

    @Flag(help: "Pretty-print a JSON response as it arrives, in the order it was sent.")
    var json = false

    @Option(help: "Print only the value at this path of a JSON response, such as results.0.title (strings print raw).")
    var pick: String?

    @Flag(
        name: .customLong("sort-keys"),
        help: "With --json or --pick: object keys in code point order, as jq -S sorts them (each object is held whole)."
    )
    var sortKeys = false

    @Flag(name: [.customShort("i"), .long], help: "Print the status line and header fields before the body.")
    var include = false

    @OptionGroup var streaming: StreamingOptions

    @OptionGroup var security: SecurityOptions

    @Option(
        help:
            "Give up after this many seconds (\(NumericOption.describe(NumericOption.timeouts))); when streaming, after this long without data.",
        transform: NumericOption.seconds(in: NumericOption.timeouts)
    )
    var timeout: Double = 30

    @Option(
        help:
            "Retry transient failures (idempotent methods only) up to this many times (\(NumericOption.describe(Self.retryRange))).",
        transform: NumericOption.integer(in: Self.retryRange)
    )
    var retries: Int = 0

    @Option(
        name: .customLong("max-size"),
        help:
            "The largest response body held in memory, in bytes (\(NumericOption.describe(Self.maxSizeRange))); --json and --pick hold only an object they sort or a string they pick.",
        transform: NumericOption.integer(in: Self.maxSizeRange)
    )
    var maxSize: Int = 64 << 20

    @Option(
        help:
            "Keep responses in this directory and reuse them as HTTP's caching rules allow (--verbose says HIT, MISS, REVALIDATED or STALE)."
    )
    var cache: String?

    @Flag(help: "With --cache: answer from the cache only, never the network (504 when nothing is stored).")
    var offline = false

    @Option(
        name: .customLong("cookie-jar"),
        help: """
            Send the cookies in this file and keep those the server sets in it, as curl's -b FILE -c FILE \
            (curl's format; created when missing, private to you).
            """
    )
    var cookieJar: String?

    @OptionGroup var recording: RecordOption

    @Option(help: "The transport: async-http-client (default) or urlsession\(Self.urlSessionNote).")
    var transport: TransportChoice = .asyncHTTPClient

    @Flag(
        name: .shortAndLong,
        help: "Log the request, the response and their header fields (secrets redacted) to standard error."
    )
    var verbose = false

    @Flag(help: "Print the request as a curl command (secrets redacted) instead of sending it.")
    var curl = false

    /// `--retries`: up to ten retries.
    static let retryRange = 0...10

    /// `--max-size`: a byte to 4 GiB (the body is held in memory).
    static let maxSizeRange = 1...(1 << 32)

    #if URLSessionTransport
    static let urlSessionNote = ""
    #else
    static let urlSessionNote = " (builds from source only)"
    #endif

    func validate() throws {
        if offline, cache == nil { throw ValidationError("--offline needs --cache DIR.") }
        #if !URLSessionTransport
        if transport == .urlSession {
            throw ValidationError(
                "This courier is built without the urlsession transport (it links libcurl, which the "
                    + "shipped binary leaves out); use async-http-client, or build courier from source."
            )
        }
        #endif
        if transport == .urlSession, !security.caCertificates.isEmpty {
            throw ValidationError(
                "--ca-cert works with the async-http-client transport; leave out --transport urlsession."
            )
        }
        if transport == .urlSession, security.proxy != nil || security.noProxy != nil {
            throw ValidationError(
                "--proxy and --noproxy work with the async-http-client transport: URLSession takes its proxy from "
                    + "https_proxy, http_proxy and NO_PROXY (or, on Apple platforms, the system settings)."
            )
        }
        if data != nil, dataBinary != nil { throw ValidationError("Give the body once: --data or --data-binary.") }
        try streaming.validate(with: [
            ("--json", json), ("--pick", pick != nil), ("--curl", curl), ("--cache", cache != nil),
            ("--record", recording.record != nil),
        ])
        if sortKeys, !json, pick == nil { throw ValidationError("--sort-keys sorts what --json or --pick prints.") }
        if let pick, JSONValue.isValidPath(pick) == false {
            throw ValidationError("--pick '\(pick)' is not a path like results.0.title or items[2].name.")
        }
    }

    func run() async throws {
        let endpoint = try makeEndpoint()
        let recorder = try recording.makeRecorder()
        let configuration = try makeConfiguration(recorder: recorder)
        switch transport {
        case .asyncHTTPClient:
            let settings = AsyncHTTPClientTransport.Configuration(
                connectTimeout: NumericOption.duration(seconds: min(timeout, 10))
            )
            try await security.withTransport(configuration: settings) { transport in
                try await run(endpoint, with: HTTPClient(transport: transport, configuration: configuration), recorder)
            }
        case .urlSession:
            #if URLSessionTransport
            let transport = URLSessionTransport()
            defer { transport.invalidate() }
            try await run(endpoint, with: HTTPClient(transport: transport, configuration: configuration), recorder)
            #else
            break  // validate() refuses it
            #endif
        }
    }

    /// Sends the endpoint and prints the response, or with `--curl` prints what would be sent;
    /// saves what `recorder` recorded, whatever the outcome.
    private func run(_ endpoint: Endpoint<Data>, with client: HTTPClient, _ recorder: CassetteRecorder?) async throws {
        // A stale answer's revalidation (stale-while-revalidate) ends before the program does,
        // within --timeout, so that the next run finds the response fresh: also when the stale
        // answer was an error status.
        do {
            try await recording.recording(recorder) { try await run(endpoint, with: client) }
        } catch {
            await Self.waitForRevalidations(of: client)
            await Self.reportCookieFileFailure(of: client)
            throw error
        }
        await Self.waitForRevalidations(of: client)
        if let failure = await client.configuration.cookies?.lastSaveFailure {
            throw CommandFailure(failure.description, status: .unexpected)
        }
    }

    /// The store writes its file at each change; a failure to is said on standard error when
    /// the request failed too (its own error is the one the command exits with).
    private static func reportCookieFileFailure(of client: HTTPClient) async {
        guard let failure = await client.configuration.cookies?.lastSaveFailure else { return }
        Terminal.error("courier: \(failure.description)")
    }

    private static func waitForRevalidations(of client: HTTPClient) async {
        await client.configuration.cache?.waitForRevalidations()
    }

    private func run(_ endpoint: Endpoint<Data>, with client: HTTPClient) async throws {
        do {
            if curl {
                let jar = cookieJar.map {
                    " -b \(PreparedRequest.shellQuoted($0)) -c \(PreparedRequest.shellQuoted($0))"
                }
                Terminal.output(try client.prepare(endpoint).curlCommand() + security.curlArguments + (jar ?? ""))
            } else if let mode = streaming.mode {
                try await streaming.run(
                    mode,
                    endpoint,
                    with: client,
                    idleTimeout: NumericOption.duration(seconds: timeout)
                ) {
                    printHead($0)
                }
            } else if json || pick != nil {
                try await printJSON(endpoint, with: client)
            } else {
                let response = try await client.response(for: endpoint)
                printHead(response.head)
                Terminal.write(response.value)
            }
        } catch let error as RequestError {
            if offline, let cache, error.httpFailure?.status == 504 {
                throw CommandFailure(
                    "Nothing stored for \(url) in \(cache): run once without --offline to fill the cache.",
                    status: .serverError
                )
            }
            throw CommandFailure(error)
        }
    }

    // MARK: - Request

    private func makeEndpoint() throws -> Endpoint<Data> {
        guard let url = URL(string: url), let scheme = url.scheme?.lowercased(), url.host != nil else {
            throw CommandFailure("'\(self.url)' is not a URL: give one like https://example.com/path.", status: .usage)
        }
        guard scheme == "http" || scheme == "https" else {
            throw CommandFailure("'\(self.url)' is not an http or https URL.", status: .usage)
        }
        let fields = try HTTPFields(commandLine: headers)
        let body = try data.map { try makeBody($0, binary: false) } ?? dataBinary.map { try makeBody($0, binary: true) }
        let methodName = (method ?? (body == nil ? "GET" : "POST")).uppercased()
        guard let method = HTTPRequest.Method(methodName) else {
            throw CommandFailure("--method '\(methodName)' is not an HTTP method.", status: .usage)
        }
        return Endpoint(method: method, url: url, headers: fields, body: body)
            .usingCachePolicy(offline ? .returnCacheDontLoad : .useProtocolPolicy)
    }

    /// The body for `--data` (JSON or a form, by its first character) or `--data-binary`; a
    /// file is streamed, never read whole.
    private func makeBody(_ argument: String, binary: Bool) throws -> RequestBody {
        func contentType(startingWith head: Data) -> String {
            if binary { return "application/octet-stream" }
            let first = head.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
                ? "application/json" : "application/x-www-form-urlencoded"
        }
        if argument == "@-" {
            let bytes: Data
            do {
                bytes = try CommandContext.readInput()
            } catch {
                throw CommandFailure(
                    "Cannot read the body from standard input: \(error.localizedDescription).",
                    status: .usage
                )
            }
            return .data(bytes, contentType: contentType(startingWith: bytes))
        }
        guard argument.hasPrefix("@") else {
            let bytes = Data(argument.utf8)
            return .data(bytes, contentType: contentType(startingWith: bytes))
        }
        let path = String(argument.dropFirst())
        // A regular file streams; a pipe (`-d @<(command)`) is read whole, and so is any file
        // for --curl and --record, which show and keep the body.
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
        guard type == .typeRegular, !curl, recording.record == nil else {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw CommandFailure(
                    "Cannot read the body file '\(path)': check that it exists and is readable.",
                    status: .usage
                )
            }
            return .data(bytes, contentType: contentType(startingWith: bytes))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(
                "Cannot read the body file '\(path)': check that it exists and is readable.",
                status: .usage
            )
        }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        try? handle.close()
        return .file(URL(fileURLWithPath: path), contentType: contentType(startingWith: head))
    }

    private func makeConfiguration(recorder: CassetteRecorder?) throws -> HTTPClient.Configuration {
        let policy = security.policy
        var middleware: [any Middleware] = recorder.map { [$0] } ?? []
        if verbose {
            middleware.append(RequestLogging(logger: Terminal.logger(label: "courier", level: .trace), level: .info))
        }
        if retries > 0 { middleware.append(Retry(maxAttempts: retries + 1)) }
        var httpCache: HTTPCache?
        if let cache {
            do {
                let directory = URL(fileURLWithPath: cache, isDirectory: true)
                let logger = Terminal.logger(label: "courier.cache", level: .warning)
                httpCache = try HTTPCache(directory: directory, logger: logger)
            } catch {
                throw CommandFailure(error.description, status: .usage)
            }
        }
        var cookies: CookieStore?
        if let cookieJar {
            do {
                cookies = try CookieStore(file: URL(fileURLWithPath: cookieJar))
            } catch {
                throw CommandFailure(error.description, status: .usage)
            }
        }
        return HTTPClient.Configuration(
            securityPolicy: policy,
            timeout: NumericOption.duration(seconds: timeout),
            maxResponseSize: maxSize,
            middleware: middleware,
            cache: httpCache,
            cookies: cookies
        )
    }

    // MARK: - Output

    /// With `--include`, the status line and header fields, then a blank line.
    private func printHead(_ response: HTTPResponse) {
        guard include else { return }
        // The status line and fields are the server's text: escaped, one line each.
        var head = "HTTP \(response.status.code) "
        head += TerminalText.escaped(response.status.reasonPhrase, as: .line) + "\n"
        for field in response.headerFields {
            head += TerminalText.escaped("\(field.name): \(field.value)", as: .line) + "\n"
        }
        Terminal.write(Data((head + "\n").utf8))
    }

    /// `--json` and `--pick`: the body formatted as it arrives, or read whole with `--cache` and
    /// `--record` (which keep it) and for a path that counts from the end of an array.
    private func printJSON(_ endpoint: Endpoint<Data>, with client: HTTPClient) async throws {
        var path = pick.map(JSONFormatter.components(ofPath:))
        let countsFromTheEnd = path.map { $0 == nil } ?? false
        guard cache != nil || recording.record != nil || countsFromTheEnd else {
            let seconds = NumericOption.duration(seconds: timeout)
            let response = try await client.stream(endpoint, timeout: seconds, idleTimeout: seconds)
            printHead(response.head)
            var output = makeOutput(path: path ?? nil)
            for try await chunk in response.body {
                guard try output.read(chunk) else { break }
            }
            return try output.finish()
        }
        let response = try await client.response(for: endpoint)
        printHead(response.head)
        if let pick, countsFromTheEnd { path = .some(try components(of: pick, in: response.value)) }
        var output = makeOutput(path: path ?? nil)
        _ = try output.read(response.value)
        try output.finish()
    }

    private func makeOutput(path: [String]?) -> JSONOutput {
        JSONOutput(
            url: url,
            pick: pick,
            path: path,
            pretty: json || pick == nil,
            sortingKeys: sortKeys,
            maxSize: maxSize
        )
    }

    /// The components of a path that counts from the end of an array (`a[-1]`), counted in the
    /// parsed body.
    private func components(of pick: String, in body: Data) throws -> [String] {
        try JSONOutput.readingJSON(from: url) { () throws(JSONSyntaxError) in try JSONSyntax.validate(Array(body)) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body)
        } catch {
            throw CommandFailure(
                "--pick '\(pick)' counts from the end of an array, so the response from \(url) is parsed whole, "
                    + "and it cannot be (\(error)): count from the start instead.",
                status: .invalidResponse
            )
        }
        guard let components = JSONFormatter.components(ofPath: pick, in: value) else {
            throw CommandFailure("The response has no value at '\(pick)'.", status: .invalidResponse)
        }
        return components
    }
}
