import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import GitWire
import Testing

/// Our ls-remote over HTTP against `git ls-remote`, byte for byte, both asking Debian's
/// `git http-backend` behind a loopback server, over HTTP and HTTPS, protocols v0 and v2, and
/// the dumb protocol.
@Suite(.loadLimited, .enabled(if: GitRepositories.isAvailable, "needs git"))
struct SmartHTTPTests {
    /// Makes the repositories in a new directory, runs `body`, and removes them.
    private func withRepositories<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("git-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await onThread { try GitRepositories.make(in: root) }
        return try await body(root)
    }

    /// `git ls-remote` with `flags`, the URL and `patterns`.
    private func theirs(
        _ url: String,
        _ flags: [String],
        _ patterns: [String] = [],
        protocolVersion: Int,
        trusting certificate: TestCertificates? = nil
    ) async throws -> String {
        let arguments = ["-c", "protocol.version=\(protocolVersion)", "ls-remote"] + flags + [url] + patterns
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        if let certificate { environment["GIT_SSL_CAINFO"] = certificate.authorityFile }
        let settled = environment
        return try await onThread { try GitRepositories.git(arguments, environment: settled) }
    }

    /// Ours, through Courier's client, printed as git prints it; every ref handed over as it
    /// arrived.
    private func ours(
        _ client: HTTPGitClient,
        _ url: String,
        _ flags: [String],
        _ patterns: [String] = [],
        protocolVersion: Int
    ) async throws -> String {
        let heads = flags.contains("--heads")
        let tags = flags.contains("--tags")
        let symref = flags.contains("--symref")
        let streamed = Counter()
        let advertisement = try await client.lsRemote(
            try GitHTTPURL(url),
            protocolVersion: protocolVersion,
            heads: heads,
            tags: tags,
            symref: symref
        ) { _ in streamed.increment() }
        #expect(streamed.value == advertisement.refs.count, "every ref was handed over as it arrived")
        return advertisement.lsRemoteOutput(
            heads: heads,
            tags: tags,
            refsOnly: flags.contains("--refs"),
            symref: symref,
            patterns: patterns.map(RefPattern.init)
        )
    }

    @discardableResult
    private func withClient<Result: Sendable>(
        trusting certificate: TestCertificates? = nil,
        credential: GitCredential? = nil,
        timeout: Duration = .seconds(60),
        deadline: Duration = .seconds(120),
        limits: GitLimits = .default,
        _ body: @Sendable (HTTPGitClient) async throws -> Result
    ) async throws -> Result {
        var configuration = AsyncHTTPClientTransport.Configuration.loopbackTests
        if let certificate {
            configuration.additionalTrustRoots = try TrustedCertificates(pemFile: certificate.authorityFile)
        }
        return try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
            let git = HTTPGitClient(
                client: HTTPClient(transport: transport),
                credential: credential,
                timeout: timeout,
                deadline: deadline,
                limits: limits
            )
            return try await body(git)
        }
    }

    // MARK: - Against git

    @Test func matchesGitForEveryRepositoryOptionAndProtocol() async throws {
        try await withRepositories { root in
            try await GitHTTPServer.withRunning(root: root) { server in
                try await withClient { git in
                    let everyOption: [[String]] = [
                        [], ["--symref"], ["--heads"], ["--tags"], ["--refs"], ["--heads", "--tags", "--symref"],
                    ]
                    let cases: [(String, [[String]])] = [
                        ("full.git", everyOption), ("many.git", [[], ["--tags", "--symref"]]),
                        ("detached.git", [["--symref"]]), ("empty.git", [[], ["--symref"]]),
                        ("shallow.git", [["--symref"]]), ("sha256.git", [["--symref"]]),
                        ("odd.git", [[], ["--refs"], ["--refs", "--heads"]]),
                    ]
                    for (repository, flagSets) in cases {
                        for version in [0, 2] {
                            for flags in flagSets {
                                let url = server.url(repository)
                                let expected = try await theirs(url, flags, protocolVersion: version)
                                let actual = try await ours(git, url, flags, protocolVersion: version)
                                #expect(actual == expected, "\(repository) protocol \(version) \(flags)")
                            }
                        }
                    }
                    let full = try await theirs(server.url("full.git"), ["--symref"], protocolVersion: 2)
                    #expect(full.hasPrefix("ref: refs/heads/main\tHEAD\n"))
                    #expect(full.contains("refs/tags/tag-of-tag^{}"), "the fixture has a tag of a tag")
                    // v2 asks the server for the branches only: it sends no tag, where v0 sends all.
                    let url = try GitHTTPURL(server.url("full.git"))
                    let branches = try await git.lsRemote(url, protocolVersion: 2, heads: true).refs.map(\.name)
                    #expect(branches == ["refs/heads/feature", "refs/heads/main"])
                    let everything = try await git.lsRemote(url, protocolVersion: 0, heads: true).refs.map(\.name)
                    #expect(everything.contains("refs/tags/annotated") && everything.first == "HEAD")
                }
            }
        }
    }

    @Test func patternsMatchAsGitMatchesThem() async throws {
        try await withRepositories { root in
            try await GitHTTPServer.withRunning(root: root) { server in
                try await withClient { git in
                    let url = server.url("full.git")
                    for patterns in [
                        ["main"], ["ain"], ["heads/*"], ["*tag*"], ["annotated"], ["annotated^{}"], ["[a-f]*"],
                        ["[!a-f]*"], ["?ain"], ["tags/*", "HEAD"], ["refs/heads/main"], ["[[:upper:]]*"],
                        ["light", "feature"], ["\\main"], ["[unclosed"], ["*"], ["[a-c-e]*"], ["[--z]*"],
                        ["[!-a]*"], ["[]a]*"],
                    ] {
                        for flags in [[], ["--tags"]] {
                            let expected = try await theirs(url, flags, patterns, protocolVersion: 2)
                            let actual = try await ours(git, url, flags, patterns, protocolVersion: 2)
                            #expect(actual == expected, "\(flags) \(patterns)")
                        }
                    }
                }
            }
        }
    }

    @Test func theDumbProtocolIsReadAsGitReadsIt() async throws {
        try await withRepositories { root in
            try await GitHTTPServer.withRunning(root: root) { server in
                try await withClient { git in
                    for repository in ["full.git", "detached.git", "empty.git", "many.git"] {
                        for flags in [["--symref"], ["--heads"], []] {
                            let url = server.url("dumb/" + repository)
                            let expected = try await theirs(url, flags, protocolVersion: 2)
                            let actual = try await ours(git, url, flags, protocolVersion: 2)
                            #expect(actual == expected, "dumb \(repository) \(flags)")
                        }
                    }
                    let full = try await ours(git, server.url("dumb/full.git"), ["--symref"], protocolVersion: 2)
                    #expect(full.hasPrefix("ref: refs/heads/main\tHEAD\n"))
                }
            }
        }
    }

    @Test func overHTTPSWithATestCertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("git-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try TestCertificates.make(in: directory)
        try await withRepositories { root in
            try await GitHTTPServer.withRunning(root: root, certificate: certificate) { server in
                #expect(server.scheme == "https")
                try await withClient(trusting: certificate) { git in
                    for version in [0, 2] {
                        let url = server.url("full.git")
                        let expected = try await theirs(
                            url,
                            ["--symref"],
                            protocolVersion: version,
                            trusting: certificate
                        )
                        #expect(expected.contains("refs/heads/main"))
                        #expect(try await ours(git, url, ["--symref"], protocolVersion: version) == expected)
                    }
                    // A redirect from https:// to http://, even on loopback, is refused before
                    // anything is sent in cleartext.
                    await #expect {
                        _ = try await git.lsRemote(try GitHTTPURL(server.url("downgrade/full.git")))
                    } throws: { error in
                        guard case .refused(_, let host, _) = error as? GitWireError else { return false }
                        return host == "127.0.0.1"
                    }
                }
                // Without the test authority, the certificate is not trusted.
                try await withClient { git in
                    await #expect {
                        _ = try await git.lsRemote(try GitHTTPURL(server.url("full.git")))
                    } throws: { error in
                        guard case .transport(_, let reason) = error as? GitWireError else { return false }
                        return reason.contains("certificate")
                    }
                }
            }
        }
    }

    @Test func fiftyThousandRefs() async throws {
        try await withRepositories { root in
            let big = root.appendingPathComponent("big.git")
            try await onThread {
                try GitRepositories.git([
                    "clone", "-q", "--bare", root.appendingPathComponent("full.git").path, big.path,
                ])
                try GitRepositories.addBranches(50_000, to: big)
            }
            try await GitHTTPServer.withRunning(root: root) { server in
                try await withClient { git in
                    // git prints the same for both protocols: it is asked once.
                    let url = server.url("big.git")
                    let expected = try await theirs(url, ["--symref"], protocolVersion: 2)
                    #expect(expected.split(separator: "\n").count == 50_009)
                    for version in [0, 2] {
                        #expect(try await ours(git, url, ["--symref"], protocolVersion: version) == expected)
                    }
                }
            }
        }
    }

    // MARK: - Credentials and statuses

    @Test func credentialsGoToTheRepositorysOriginOnly() async throws {
        try await withRepositories { root in
            try await GitHTTPServer.withRunning(root: root) { server in
                let right = GitCredential(username: GitHTTPServer.user, password: GitHTTPServer.password)
                let url = try GitHTTPURL(server.url("private/full.git"))
                try await withClient { git in
                    await #expect(throws: GitWireError.unauthorized(url.description, credentialsSent: false)) {
                        _ = try await git.lsRemote(url)
                    }
                }
                try await withClient(credential: GitCredential(username: "alice", password: "wrong")) { git in
                    await #expect(throws: GitWireError.unauthorized(url.description, credentialsSent: true)) {
                        _ = try await git.lsRemote(url)
                    }
                }
                try await withClient(credential: right) { git in
                    let withPassword = server.url("private/full.git").replacingOccurrences(
                        of: "://",
                        with: "://\(GitHTTPServer.user):\(GitHTTPServer.password)@"
                    )
                    for version in [0, 2] {
                        let expected = try await theirs(withPassword, ["--symref"], protocolVersion: version)
                        #expect(expected.contains("refs/heads/main"))
                        #expect(
                            try await ours(git, server.url("private/full.git"), ["--symref"], protocolVersion: version)
                                == expected
                        )
                    }
                    let forbidden = try GitHTTPURL(server.url("forbidden/full.git"))
                    // Refused without being asked for credentials: they were not sent.
                    await #expect(throws: GitWireError.forbidden(forbidden.description, credentialsSent: false)) {
                        _ = try await git.lsRemote(forbidden)
                    }
                    let missing = try GitHTTPURL(server.url("no-such.git"))
                    await #expect(throws: GitWireError.notFound(missing.description)) {
                        _ = try await git.lsRemote(missing)
                    }
                    // A repository that never asks for credentials never sees them.
                    let before = server.log.requests.count
                    _ = try await git.lsRemote(try GitHTTPURL(server.url("full.git")))
                    #expect(server.log.requests.dropFirst(before).allSatisfy { $0.authorization == nil })
                    // Asked for them, then moved to another origin (localhost, not 127.0.0.1):
                    // the new origin answers and never sees the credential, neither on the
                    // redirect nor on the ls-refs after it.
                    let moved = try await git.lsRemote(
                        try GitHTTPURL(server.url("private-moved/full.git")),
                        symref: true
                    )
                    #expect(moved.symrefs.first?.target == "refs/heads/main")
                    let atLocalhost = server.log.requests.filter { $0.host.hasPrefix("localhost") }
                    #expect(atLocalhost.map(\.method) == ["GET", "POST"])
                    #expect(atLocalhost.allSatisfy { $0.authorization == nil })
                    let asked = server.log.requests.filter { $0.target.hasPrefix("/private-moved/") }
                    #expect(asked.map { $0.authorization != nil } == [false, true], "sent once asked, not before")
                }
                // A source of credentials is asked once, and only by a repository that asks.
                let asked = Counter()
                let source: @Sendable (GitHTTPURL) async -> GitCredential? = { _ in
                    asked.increment()
                    return right
                }
                try await withClient { plain in
                    let git = HTTPGitClient(client: plain.client, credentialSource: source, timeout: .seconds(60))
                    _ = try await git.lsRemote(try GitHTTPURL(server.url("full.git")))
                    #expect(asked.value == 0)
                    let listed = try await git.lsRemote(try GitHTTPURL(server.url("private/full.git")))
                    #expect(listed.refs.contains { $0.name == "refs/heads/main" })
                    #expect(asked.value == 1)
                }
                #expect(!right.description.contains(GitHTTPServer.password))
                #expect(!"\(right)".contains(GitHTTPServer.password) && !String(reflecting: right).contains("s3cret"))
            }
        }
    }

    // MARK: - Hostile servers

    /// Expects listing `url` to fail with a limit error (`overLimit`) or a malformed answer whose
    /// reason holds `words`.
    private static func expect(
        _ git: HTTPGitClient,
        _ url: String,
        overLimit: Bool = false,
        toFailWith words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await #expect(sourceLocation: sourceLocation) {
            _ = try await git.lsRemote(try GitHTTPURL(url))
        } throws: { error in
            switch error as? GitWireError {
            case .limitExceeded(_, let reason)? where overLimit: reason.contains(words)
            case .malformed(_, let reason)? where !overLimit: reason.contains(words)
            default: false
            }
        }
    }

    @Test func hostileServersAreStoppedAtTheLimits() async throws {
        try await withRepositories { root in
            try await GitHTTPServer.withRunning(root: root) { server in
                let limits = GitLimits(maximumRefs: 100_000, maximumBytes: 1 << 20)
                try await withClient(limits: limits) { git in
                    await Self.expect(git, server.url("endless/x.git"), overLimit: true, toFailWith: "1048576 bytes")
                    await Self.expect(
                        git,
                        server.url("overlong/x.git"),
                        toFailWith: "length 65521 is longer than the 65520"
                    )
                    await Self.expect(git, server.url("html/full.git"), toFailWith: "HTML page")
                    // Bytes after the capabilities' flush are dropped: ls-refs follows.
                    let trailing = try await git.lsRemote(try GitHTTPURL(server.url("trailing/full.git")), symref: true)
                    #expect(trailing.protocolVersion == 2)
                    #expect(trailing.symrefs.first?.target == "refs/heads/main")
                    #expect(trailing.refs.contains { $0.name == "refs/tags/tag-of-tag^{}" })
                    await Self.expect(git, server.url("wrong-result/full.git"), toFailWith: "'text/plain'")
                }
                // A body that stalls before the 10 s silence allowed is ended by the deadline.
                try await withClient(timeout: .seconds(10), deadline: .seconds(1)) { git in
                    let stall = try GitHTTPURL(server.url("stall/x.git"))
                    await #expect(throws: GitWireError.timedOut(stall.description, after: .seconds(1))) {
                        _ = try await git.lsRemote(stall)
                    }
                }
            }
        }
    }
}

/// Runs blocking `work` on a new thread.
func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
