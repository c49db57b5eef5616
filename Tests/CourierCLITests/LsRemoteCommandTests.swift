import Foundation
import Testing

@Suite("courier ls-remote")
struct LsRemoteCommandTests {
    @Test func badAddressesAreUsageErrors() async throws {
        let scheme = try await Courier.run("ls-remote", "https://example.org/repo.git")
        #expect(scheme.status == 2)
        #expect(
            scheme.stderr
                == "courier: 'https://example.org/repo.git' is not a git:// URL this can use: only git:// is supported.\n"
        )
        let injected = try await Courier.run("ls-remote", "git://127.0.0.1/repo\nhost=evil")
        #expect(injected.status == 2)
        #expect(injected.stderr.contains("it contains a control character (NUL, newline…)"))
        let version = try await Courier.run("ls-remote", "git://127.0.0.1/r.git", "--protocol", "1")
        #expect(version.status == 2)
    }

    @Test func aClosedPortIsANetworkError() async throws {
        let result = try await Courier.run("ls-remote", "git://127.0.0.1:9/repo.git")
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "courier: Could not connect to git://127.0.0.1:9/repo.git (connection refused): is git daemon running, and the port right?\n"
        )
    }
}
