import Courier
import CourierAsyncHTTPClient
import Foundation
import GitWire

/// The README's samples that do not open with `import` lines, each in the context it takes for
/// granted (those that do are files of their own: `ReadmeStoreSample.swift`,
/// `ReadmeFavoritesSample.swift`). Nothing calls them: the build compiles them.
enum ReadmeSamples {
    // MARK: - README.md, "Proxies"

    static func proxies() throws {
        let proxies = try ProxySettings(environment: ProcessInfo.processInfo.environment)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: proxies))
        keep(transport)
    }

    // MARK: - README.md, "Cookies"

    static func cookies(transport: some HTTPTransport) throws {
        let cookies = try CookieStore(file: URL(fileURLWithPath: "cookies.txt"))
        let client = HTTPClient(transport: transport, configuration: .init(cookies: cookies))
        keep(client)
    }

    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - README.md, "courier ls-remote"

    static func lsRemote() async throws {
        let url = try GitURL("git://127.0.0.1:9418/project.git")
        for try await ref in AsyncGitClient().refs(url) {
            print(ref.objectID, ref.name)
        }
    }
}
