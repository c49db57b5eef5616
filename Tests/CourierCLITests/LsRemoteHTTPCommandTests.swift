import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier ls-remote https://…` against Debian's `git http-backend`, compared with
/// `git ls-remote` on the same server.
@Suite("courier ls-remote over HTTP", .loadLimited, .enabled(if: GitRepositories.isAvailable, "needs git"))
struct LsRemoteHTTPCommandTests {
    private func withServer(_ body: @Sendable (GitHTTPServer) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ls-remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.onThread { try GitRepositories.make(in: root) }
        try await GitHTTPServer.withRunning(root: root, body)
    }

    private static func git(_ arguments: [String]) async throws -> String {
        try await onThread { try GitRepositories.git(arguments) }
    }

    private static func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    @Test func printsWhatGitPrints() async throws {
        try await withServer { server in
            let url = server.url("full.git")
            for arguments in [
                ["--symref"], ["--tags", "a*"], ["--heads", "--protocol", "0"], ["--refs", "main", "light"],
            ] {
                let protocolVersion = arguments.contains("0") ? "0" : "2"
                let gitArguments = arguments.filter { $0 != "--protocol" && $0 != "0" }
                let flags = gitArguments.filter { $0.hasPrefix("--") }
                let patterns = gitArguments.filter { !$0.hasPrefix("--") }
                let expected = try await Self.git(
                    ["-c", "protocol.version=\(protocolVersion)", "ls-remote"] + flags + [url] + patterns
                )
                let result = try await Courier.run(["ls-remote", url] + arguments)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == expected, "\(arguments)")
            }
        }
    }

    @Test func jsonListsTheSameRefs() async throws {
        try await withServer { server in
            let result = try await Courier.run("ls-remote", server.url("full.git"), "--json", "main")
            #expect(result.status == 0)
            struct Listing: Decodable {
                struct Ref: Decodable, Equatable {
                    var name: String
                    var object_id: String
                    var symref_target: String?
                }
                var refs: [Ref]
            }
            let listing = try JSONDecoder().decode(Listing.self, from: Data(result.stdout.utf8))
            #expect(listing.refs.map(\.name) == ["refs/heads/main"])
            let head = try await Courier.run("ls-remote", server.url("full.git"), "--json", "HEAD")
            let headListing = try JSONDecoder().decode(Listing.self, from: Data(head.stdout.utf8))
            #expect(headListing.refs.first?.symref_target == "refs/heads/main")
            #expect(headListing.refs.first?.object_id == listing.refs.first?.object_id)
        }
    }

    @Test func aTokenFromTheEnvironmentOrAHelperReachesThePrivateRepository() async throws {
        try await withServer { server in
            let url = server.url("private/full.git")
            let without = try await Courier.run(["ls-remote", url], environment: ["COURIER_GIT_TOKEN": "ignored"])
            #expect(without.status == 4)
            #expect(
                without.stderr
                    == "courier: \(url) needs credentials (HTTP 401): give a token or password for it. Use "
                    + "--token-env or --credential-helper.\n"
            )
            let userURL = url.replacingOccurrences(of: "://", with: "://\(GitHTTPServer.user)@")
            let token = try await Courier.run(
                ["ls-remote", userURL, "--heads", "--token-env", "MY_TOKEN"],
                environment: ["MY_TOKEN": GitHTTPServer.password]
            )
            #expect(token.status == 0, "\(token.stderr)")
            #expect(token.stdout.contains("\trefs/heads/main\n"))
            let unset = try await Courier.run(["ls-remote", userURL, "--token-env", "MY_TOKEN"])
            #expect(unset.status == 2)
            #expect(unset.stderr == "courier: --token-env MY_TOKEN: the variable is not set.\n")
            let wrong = try await Courier.run(
                ["ls-remote", userURL, "--token-env", "MY_TOKEN"],
                environment: ["MY_TOKEN": "not-the-token"]
            )
            #expect(wrong.status == 4)
            #expect(wrong.stderr.contains("refused the credentials given"))
            #expect(!wrong.stderr.contains("not-the-token"))
            // The credential goes to the address given; a host it moves to does not get it.
            let moved = try await Courier.run(
                ["ls-remote", server.url("moved/private/full.git"), "--token-env", "MY_TOKEN"],
                environment: ["MY_TOKEN": GitHTTPServer.password]
            )
            #expect(moved.status == 4)
            #expect(moved.stderr.contains("the credential given goes to"))
            // A helper, answering as git's helpers answer.
            let helper = "printf 'username=\(GitHTTPServer.user)\\npassword=\(GitHTTPServer.password)\\n'; true"
            let helped = try await Courier.run(["ls-remote", url, "--heads", "--credential-helper", helper])
            #expect(helped.status == 0, "\(helped.stderr)")
            #expect(helped.stdout == token.stdout)
            #expect(!helped.stdout.contains(GitHTTPServer.password) && !helped.stderr.contains(GitHTTPServer.password))
            // The helper is asked only when the repository asks for credentials.
            let publicRun = try await Courier.run([
                "ls-remote", server.url("full.git"), "--credential-helper", "exit 3;",
            ])
            #expect(publicRun.status == 0, "\(publicRun.stderr)")
            let failing = try await Courier.run(["ls-remote", url, "--credential-helper", "exit 3;"])
            #expect(failing.status == 2)
            #expect(failing.stderr == "courier: The credential helper failed (status 3).\n")
            // A helper that leaves a process holding its output is not waited for.
            let lingering =
                "f() { printf 'username=\(GitHTTPServer.user)\\npassword=\(GitHTTPServer.password)\\n'; "
                + "sleep 5 & }; f"
            let left = try await Courier.run(["ls-remote", url, "--heads", "--credential-helper", lingering])
            #expect(left.status == 0, "\(left.stderr)")
            #expect(left.stdout == token.stdout)
            // One that takes too long is stopped at the deadline, and never named. (Two seconds:
            // the request before it must fit in the same deadline on a loaded machine.)
            let slow = try await Courier.run([
                "ls-remote", url, "--deadline", "2", "--credential-helper", "exec sleep 30 #",
            ])
            #expect(slow.status == 2)
            #expect(slow.stderr == "courier: The credential helper took longer than --deadline.\n")
            // A user name that would add a line to the helper's question is refused first.
            let injected = try await Courier.run(
                ["ls-remote", "https://x%0Ahost=github.com@example.org/r.git", "--credential-helper", helper]
            )
            #expect(injected.status == 2)
            #expect(injected.stderr.contains("control character or a colon"))
        }
    }

    @Test func cleartextToAnotherHostIsRefused() async throws {
        let result = try await Courier.run("ls-remote", "http://192.0.2.1:9/repo.git")
        #expect(result.status == 3)
        #expect(result.stderr.contains("--allow-http 192.0.2.1."))
    }
}
