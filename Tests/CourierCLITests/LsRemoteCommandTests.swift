import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

@Suite("courier ls-remote", .loadLimited)
struct LsRemoteCommandTests {
    @Test func badAddressesAreUsageErrors() async throws {
        let scheme = try await Courier.run("ls-remote", "ftp://example.org/repo.git")
        #expect(scheme.status == 2)
        #expect(
            scheme.stderr
                == "courier: 'ftp://example.org/repo.git' is not a git URL this can use: use git://, https:// or http://.\n"
        )
        let password = try await Courier.run("ls-remote", "https://alice:hunter2@example.org/repo.git")
        #expect(password.status == 2)
        #expect(password.stderr.contains("https://…@example.org/repo.git"))
        #expect(!password.stderr.contains("hunter2") && !password.stderr.contains("alice"))
        let both = try await Courier.run(
            "ls-remote",
            "https://example.org/r.git",
            "--token-env",
            "T",
            "--credential-helper",
            "x"
        )
        #expect(both.status == 2)
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
                == "courier: Could not connect to git://127.0.0.1:9/repo.git (connection refused): is the git server running, and the port right?\n"
        )
    }
}

/// The limits of `courier ls-remote` against a hostile server, from the command line.
@Suite("courier ls-remote limits", .loadLimited)
struct LsRemoteLimitsTests {
    @Test func moreRefsThanMaxRefsIsAnInvalidResponseNamingTheOption() async throws {
        let server = try HostileGitServer(answer: HostileAnswer.chunks(of: HostileAnswer.refs(10), size: 1 << 16))
        let result = try await Courier.run("ls-remote", server.url(), "--max-refs", "3")
        #expect(result.status == 6)
        #expect(
            result.stderr
                == "courier: \(server.url()) sent more than this client allows: more than 3 refs "
                + "(GitLimits.maximumRefs); raise the limit if the repository really has that many. "
                + "(Options: --max-refs, --max-bytes.)\n"
        )
    }

    /// One byte every 200 ms keeps every read within --timeout; --deadline ends it.
    @Test func aTricklingServerMeetsTheDeadline() async throws {
        let server = try HostileGitServer(
            pause: .milliseconds(200),
            answer: HostileAnswer.chunks(of: HostileAnswer.refs(300), size: 1)
        )
        let result = try await Courier.run("ls-remote", server.url(), "--timeout", "30", "--deadline", "1")
        #expect(result.status == 3)
        #expect(result.stderr.contains("within 1.0 s: check the server, or raise --timeout (each step) or --deadline"))
    }

    @Test(arguments: [["--max-refs", "0"], ["--max-bytes", "-1"], ["--deadline", "inf"], ["--max-refs", "1e9"]])
    func outOfRangeLimitsAreUsageErrors(option: [String]) async throws {
        let result = try await Courier.run(["ls-remote", "git://127.0.0.1:9/r.git"] + option)
        #expect(result.status == 2)
        #expect(result.stderr.contains(option[0]))
    }
}
