public import Courier
import CourierAsyncHTTPClient
public import Foundation
public import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// A real browser driven over the W3C WebDriver protocol: Debian's `chromedriver` starts
/// headless Chromium, and Courier's own client sends the commands.
public struct WebDriver: Sendable {
    /// Debian's Chromium, if installed.
    public static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// Debian's chromedriver (package chromium-driver), if installed.
    public static let chromedriver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// Whether both are installed.
    public static var isAvailable: Bool { chromium != nil && chromedriver != nil }

    let client: HTTPClient
    let session: String

    /// Runs `body` with a fresh browser window of `width`×`height`, closed afterwards.
    public static func withBrowser<Result: Sendable>(
        width: Int = 1100,
        height: Int = 900,
        _ body: @Sendable (WebDriver) async throws -> Result
    ) async throws -> Result {
        guard let chromium, let chromedriver else {
            throw WebDriverError("chromium and chromedriver are not installed")
        }
        // chromedriver once ended before listening on a loaded machine (its standard error is
        // in the error); a second start is tried before giving up. The test's own steps are
        // never retried.
        var driver = try ChromeDriverProcess(executable: chromedriver)
        let port: Int
        if let first = try? await driver.port() {
            port = first
        } else {
            await driver.stop()
            driver = try ChromeDriverProcess(executable: chromedriver)
            do {
                port = try await driver.port()
            } catch {
                await driver.stop()
                throw error
            }
        }
        do {
            let result = try await session(port: port, chromium: chromium, width: width, height: height, body)
            await driver.stop()
            return result
        } catch {
            await driver.stop()
            throw error
        }
    }

    private static func session<Result: Sendable>(
        port: Int,
        chromium: String,
        width: Int,
        height: Int,
        _ body: @Sendable (WebDriver) async throws -> Result
    ) async throws -> Result {
        try await AsyncHTTPClientTransport.withTransport(
            configuration: .init(connectTimeout: .seconds(60), readTimeout: .seconds(150))
        ) {
            transport in
            let client = HTTPClient(
                transport: transport,
                configuration: .init(baseURL: URL(string: "http://127.0.0.1:\(port)"), timeout: .seconds(120))
            )
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("courier-chromium-\(UUID())")
            defer { try? FileManager.default.removeItem(at: profile) }
            let capabilities: JSONValue = .object([
                "capabilities": .object([
                    "alwaysMatch": .object([
                        "browserName": .string("chrome"),
                        "goog:chromeOptions": .object([
                            "binary": .string(chromium),
                            "args": .array(
                                [
                                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                    "--no-first-run", "--window-size=\(width),\(height)",
                                    // Nothing the tests do not need: the suite shares two cores.
                                    "--disable-extensions", "--disable-background-networking",
                                    "--disable-component-update", "--disable-default-apps", "--disable-sync",
                                    "--mute-audio", "--renderer-process-limit=1",
                                    "--user-data-dir=\(profile.path)",
                                ].map(JSONValue.string)
                            ),
                        ]),
                    ])
                ])
            ])
            let created = try await client.send(Self.command(.post, "/session", capabilities))
            guard let session = created["value"]?["sessionId"]?.stringValue else {
                throw WebDriverError("no session in \(created.formatted(compact: true))")
            }
            let browser = WebDriver(client: client, session: session)
            do {
                try await browser.run(
                    .post,
                    "timeouts",
                    .object(["script": .number(90_000), "pageLoad": .number(90_000)])
                )
                let result = try await body(browser)
                _ = try? await client.send(Self.command(.delete, "/session/\(session)", nil))
                return result
            } catch {
                _ = try? await client.send(Self.command(.delete, "/session/\(session)", nil))
                throw error
            }
        }
    }

    private static func command(_ method: HTTPRequest.Method, _ path: String, _ body: JSONValue?) -> Endpoint<JSONValue>
    {
        Endpoint(method: method, scheme: "http", path: path, body: body.map { .json($0) })
    }

    /// Sends a session command and returns its `value`.
    @discardableResult
    public func run(_ method: HTTPRequest.Method, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        let answer = try await client.send(Self.command(method, "/session/\(session)/\(path)", body ?? .object([:])))
        return answer["value"] ?? .null
    }

    // MARK: - Commands

    /// Loads `url`.
    public func open(_ url: URL) async throws {
        try await run(.post, "url", .object(["url": .string(url.absoluteString)]))
    }

    /// The id of the element `css` selects.
    public func element(_ css: String) async throws -> String {
        let found = try await run(.post, "element", .object(["using": .string("css selector"), "value": .string(css)]))
        guard let id = found.objectValue?.values.first?.stringValue else { throw WebDriverError("no element \(css)") }
        return id
    }

    /// Clicks the element `css` selects.
    public func click(_ css: String) async throws {
        try await run(.post, "element/\(try await element(css))/click")
    }

    /// Types `text` into `css` as key presses.
    public func type(_ text: String, into css: String) async throws {
        try await run(.post, "element/\(try await element(css))/value", .object(["text": .string(text)]))
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page.
    @discardableResult
    public func script(_ script: String, _ args: [JSONValue] = []) async throws -> JSONValue {
        try await run(.post, "execute/sync", .object(["script": .string(script), "args": .array(args)]))
    }

    /// Runs `script` (a function body whose last argument is the callback that ends it) in the
    /// page and returns what it passed to the callback.
    @discardableResult
    public func asyncScript(_ script: String, _ args: [JSONValue] = []) async throws -> JSONValue {
        try await run(.post, "execute/async", .object(["script": .string(script), "args": .array(args)]))
    }

    /// Waits until the JavaScript expression `condition` is true in the page, checking after
    /// every change to the document and every image or resource that finishes loading.
    public func wait(until condition: String, timeout: Duration = .seconds(60)) async throws {
        let milliseconds = Int(timeout.components.seconds * 1000)
        let source = """
            const done = arguments[arguments.length - 1];
            const check = () => { try { return Boolean(\(condition)); } catch (error) { return false; } };
            if (check()) { done(true); return; }
            let finished = false;
            const finish = (value) => {
              if (finished) return;
              finished = true;
              observer.disconnect();
              document.removeEventListener("load", onEvent, true);
              document.removeEventListener("error", onEvent, true);
              clearInterval(backstop);
              clearTimeout(timer);
              done(value);
            };
            const onEvent = () => { if (check()) finish(true); };
            const observer = new MutationObserver(onEvent);
            observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
            document.addEventListener("load", onEvent, true);
            document.addEventListener("error", onEvent, true);
            // Properties such as naturalWidth change without a DOM event in some cases.
            const backstop = setInterval(onEvent, 100);
            const timer = setTimeout(() => finish(false), \(milliseconds));
            """
        let held = try await asyncScript(source)
        guard held.boolValue == true else {
            let text = try await script("return document.querySelector('main').innerText").stringValue ?? ""
            throw WebDriverError("timed out waiting for \(condition); the page says: \(text.prefix(800))")
        }
    }

    /// The visible text of the element `css` selects.
    public func text(_ css: String) async throws -> String {
        try await run(.get, "element/\(try await element(css))/text").stringValue ?? ""
    }

    /// A PNG of the window.
    public func screenshot() async throws -> Data {
        guard let base64 = try await run(.get, "screenshot").stringValue, let data = Data(base64Encoded: base64) else {
            throw WebDriverError("no screenshot")
        }
        return data
    }

    /// Resizes the window.
    public func setWindowSize(width: Int, height: Int) async throws {
        try await run(
            .post,
            "window/rect",
            .object(["width": .number(Double(width)), "height": .number(Double(height))])
        )
    }
}

/// What went wrong driving the browser.
public struct WebDriverError: Error, CustomStringConvertible {
    /// What happened.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// `chromedriver --port=0`, which prints the port it chose. Foundation starts it in a process
/// group of its own, which the browsers it starts join: stopping the group stops them too.
final class ChromeDriverProcess: Sendable {
    private let process: Process
    private let output: Pipe
    private let errors: Pipe

    init(executable: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port=0"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        self.process = process
        self.output = output
        self.errors = errors
    }

    /// The port, read from "ChromeDriver was started successfully on port N." once printed.
    func port() async throws -> Int {
        let handle = output.fileHandleForReading
        let errorHandle = errors.fileHandleForReading
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                var text = ""
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty {
                        let said = String(decoding: errorHandle.availableData, as: UTF8.self)
                        continuation.resume(throwing: WebDriverError("chromedriver ended: \(text) \(said)"))
                        return
                    }
                    text += String(decoding: chunk, as: UTF8.self)
                    if let range = text.range(of: "started successfully on port "),
                        let port = Int(text[range.upperBound...].prefix { $0.isNumber })
                    {
                        continuation.resume(returning: port)
                        return
                    }
                }
            }.start()
        }
    }

    /// Kills chromedriver (it ignores SIGTERM) and what it started, and waits for it on a thread
    /// of its own, so that no task's thread blocks.
    func stop() async {
        let pid = process.processIdentifier
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                kill(-pid, SIGKILL)  // the group: chromedriver and its browsers
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                continuation.resume()
            }.start()
        }
    }
}
