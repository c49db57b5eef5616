import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier get --cookie-jar FILE`: cookies kept across runs in a private file curl can read.
@Suite("courier get --cookie-jar", .loadLimited)
struct CookieJarCommandTests {
    @Test func keepsCookiesAcrossRunsInAPrivateFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jar = directory.appendingPathComponent("cookies.txt").path
        try await TestServer.withRunning { server in
            var set = URLComponents(url: server.url("/cookies/set"), resolvingAgainstBaseURL: false)
            set?.queryItems = [URLQueryItem(name: "c", value: "sid=abc123; Path=/; HttpOnly")]
            let login = try await Courier.run("get", try #require(set?.url?.absoluteString), "--cookie-jar", jar)
            #expect(login.status == 0, "\(login.stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: jar)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(text.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc123\n"), "\(text)")

            let echo = try await Courier.run("get", server.url("/echo").absoluteString, "--cookie-jar", jar, "-v")
            #expect(echo.status == 0, "\(echo.stderr)")
            #expect(echo.stdout.contains(#""cookie":"sid=abc123""#), "\(echo.stdout)")
            #expect(!echo.stderr.contains("abc123"), "the value stays out of the log")

            // A jar that cannot be written is said, after the response, with a failing status.
            let nowhere = directory.appendingPathComponent("missing/cookies.txt").path
            let unwritable = try await Courier.run(
                "get",
                try #require(set?.url?.absoluteString),
                "--cookie-jar",
                nowhere
            )
            #expect(unwritable.status == 1)
            #expect(unwritable.stderr.contains("The cookie file \(nowhere) cannot be used"), "\(unwritable.stderr)")

            let curl = try await Courier.run("get", server.url("/echo").absoluteString, "--cookie-jar", jar, "--curl")
            #expect(curl.stdout.hasSuffix(" -b '\(jar)' -c '\(jar)'\n"), "\(curl.stdout)")
        }
        try "example.org\tTRUE\n".write(toFile: jar, atomically: true, encoding: .utf8)
        let broken = try await Courier.run("get", "http://127.0.0.1:1/", "--cookie-jar", jar)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("line 1 is not a cookie in curl's format"), "\(broken.stderr)")
    }
}
