import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// The search page in a real browser: headless Chromium (Debian's `chromium` package) loads it
/// from the service, runs its script against the JSON API, and the rendered DOM is checked.
/// Skipped where Chromium is not installed; `.ci/run` installs it.
@Suite(.loadLimited)
struct WebPageBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The DOM after the page's script ran, with up to five seconds of virtual time.
    private static func renderedDOM(of url: URL) async throws -> String {
        guard let chromium else { return "" }
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: chromium)
                process.arguments = [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--virtual-time-budget=5000",
                    "--user-data-dir=\(FileManager.default.temporaryDirectory.path)/chromium-\(UUID().uuidString)",
                    "--dump-dom", url.absoluteString,
                ]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                    let dom = String(decoding: PipeReader.readAll(output.fileHandleForReading), as: UTF8.self)
                    process.waitUntilExit()
                    continuation.resume(returning: dom)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    @Test(.enabled(if: chromium != nil, "needs Debian's chromium package"))
    func searchesLocationsAndBooksFromTheAddressBar() async throws {
        try await LibraryServiceFixture.withListeningService { _, url async throws in
            let locations = try await Self.renderedDOM(of: URL(string: "\(url)/?country=cote")!)
            #expect(locations.contains(#"<p id="status" role="status" aria-live="polite">1 library.</p>"#))
            #expect(locations.contains(#"<span class="primary">Plateau</span>"#))
            #expect(locations.contains("Abidjan, Côte d'Ivoire · 8am–5pm"))

            let books = try await Self.renderedDOM(of: URL(string: "\(url)/?q=%C3%89TR")!)
            #expect(books.contains("2 books."))
            #expect(books.contains(#"<span class="primary">Étranger au paradis</span>"#))
            #expect(books.contains(#"<span class="primary">Etruscan Places</span>"#))

            let none = try await Self.renderedDOM(of: URL(string: "\(url)/?q=zzz")!)
            #expect(none.contains("No books start with “zzz”. Try fewer letters."))
        }
    }
}
