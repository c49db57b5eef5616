import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation
import GitWire
import Synchronization

/// `courier ls-remote URL [PATTERN…]`: what `git ls-remote` prints, over `git://` or git's smart
/// (or dumb) HTTP.
struct LsRemote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls-remote",
        abstract: "List a repository's refs over https:// or git://, as git ls-remote does.",
        discussion: """
            Prints the same lines as git ls-remote, for the options both have. A pattern keeps the \
            refs whose name ends with it, in whole path components, with git's wildcards (*, ?, [a-z]).

            A private repository over HTTPS: the token in the variable --token-env names, or what \
            a git credential helper gives (--credential-helper, asked then), is sent once the \
            repository asks for credentials (401), to its own scheme, host and port only, and \
            never printed. The user is the one in the URL (https://alice@host/…), else \
            x-access-token.

            Examples:
              courier ls-remote https://github.com/apple/swift-nio.git --tags '1.*'
              courier ls-remote https://github.com/me/private.git --token-env GITHUB_TOKEN
              courier ls-remote https://example.org/private.git --credential-helper 'gh auth git-credential'
              courier ls-remote git://127.0.0.1:9418/project.git --heads --symref --protocol 2
            """
    )

    @Argument(help: "https://host/path, http://host/path (loopback or --allow-http) or git://host[:port]/path.")
    var url: String

    @Argument(help: "Only refs whose name ends with one of these, as git matches them.")
    var patterns: [String] = []

    @Flag(help: "Only refs under refs/heads/.")
    var heads = false

    @Flag(help: "Only refs under refs/tags/.")
    var tags = false

    @Flag(help: "No peeled tags (^{}) and no pseudo-refs such as HEAD.")
    var refs = false

    @Flag(help: "Also print what symbolic refs such as HEAD point to.")
    var symref = false

    @Flag(help: "Print the refs as JSON: name, object_id and, for a symbolic ref, symref_target.")
    var json = false

    @Option(
        name: .customLong("protocol"),
        help: "The wire protocol version: 0 or 2 (default: 2 over HTTP, as git; 0 over git://)."
    )
    var protocolVersion: Int?

    @Option(
        help: "Give up after this many seconds without progress (\(NumericOption.describe(NumericOption.timeouts))).",
        transform: NumericOption.seconds(in: NumericOption.timeouts)
    )
    var timeout: Double = 10

    @Option(
        help: """
            Give up after this many seconds in all, even if the server keeps sending \
            (\(NumericOption.describe(NumericOption.timeouts))).
            """,
        transform: NumericOption.seconds(in: NumericOption.timeouts)
    )
    var deadline: Double = 300

    @Option(
        help: "Refuse an answer with more refs than this (\(NumericOption.describe(Self.refCounts))).",
        transform: NumericOption.integer(in: Self.refCounts)
    )
    var maxRefs = GitLimits.default.maximumRefs

    @Option(
        help: "Refuse an answer longer than this many bytes (\(NumericOption.describe(Self.byteCounts))).",
        transform: NumericOption.integer(in: Self.byteCounts)
    )
    var maxBytes = GitLimits.default.maximumBytes

    @Option(
        name: .customLong("token-env"),
        help: "Send the token in this environment variable when the repository asks for credentials."
    )
    var tokenVariable: String?

    @Option(
        name: .customLong("credential-helper"),
        help: """
            Ask this git credential helper command for the user and password, as git does \
            ('gh auth git-credential', 'git credential-store'); run by /bin/sh with 'get' added.
            """
    )
    var credentialHelper: String?

    @OptionGroup(title: "HTTPS") var security: SecurityOptions

    /// Refs in an advertisement: one to a hundred million.
    static let refCounts = 1...100_000_000
    /// Bytes in an advertisement: a pkt-line to 16 GiB.
    static let byteCounts = 4...(16 << 30)

    func validate() throws {
        if let protocolVersion, protocolVersion != 0, protocolVersion != 2 {
            throw ValidationError("--protocol must be 0 or 2 (got \(protocolVersion)).")
        }
        if tokenVariable != nil, credentialHelper != nil {
            throw ValidationError("Give --token-env or --credential-helper, not both.")
        }
    }

    func run() async throws {
        let remote: GitRemote
        do {
            remote = try GitRemote(url)
        } catch {
            throw CommandFailure(error.description, status: .usage)
        }
        let limits = GitLimits(maximumRefs: maxRefs, maximumBytes: maxBytes)
        let token = try self.token(for: remote)
        // The helper is asked only when the repository asks for credentials, as git asks it.
        // Its time counts in --deadline with the conversation's.
        let end = ContinuousClock.now.advanced(by: .seconds(deadline))
        let helper = credentialHelper.map { HelperOutcome(command: $0, end: end) }
        let advertisement: RefAdvertisement
        do throws(GitWireError) {
            switch remote {
            case .daemon(let target):
                advertisement = try await daemon(target, limits: limits)
            case .http(let target):
                advertisement = try await http(target, credential: token, helper: helper, limits: limits)
            }
        } catch {
            if case .unauthorized(_, credentialsSent: false) = error, let failure = helper?.failure { throw failure }
            throw CommandFailure(
                Self.message(for: error, credentialGiven: token != nil || helper?.gaveCredential == true),
                status: Self.status(for: error)
            )
        }
        let patterns = patterns.map(RefPattern.init)
        if json {
            try Terminal.output(
                json: Self.json(advertisement, heads: heads, tags: tags, refsOnly: refs, patterns: patterns)
            )
        } else {
            let output = Self.output(
                advertisement,
                heads: heads,
                tags: tags,
                refsOnly: refs,
                symref: symref,
                patterns: patterns
            )
            Terminal.write(Data(output.utf8))
        }
    }

    // MARK: - Transports

    /// Over `git://`, with the blocking client on a thread of its own, off the concurrency pool.
    private func daemon(_ target: GitURL, limits: GitLimits) async throws(GitWireError) -> RefAdvertisement {
        let client = BlockingGitClient(timeout: .seconds(timeout), deadline: .seconds(deadline), limits: limits)
        let (version, heads, tags, symref) = (protocolVersion ?? 0, heads, tags, symref || json)
        let result: Result<RefAdvertisement, GitWireError> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: Result { () throws(GitWireError) in
                        try client.lsRemote(target, protocolVersion: version, heads: heads, tags: tags, symref: symref)
                    }
                )
            }.start()
        }
        return try result.get()
    }

    /// Over HTTP, on Courier's client with `--ca-cert`, `--allow-http` and the proxies.
    private func http(
        _ target: GitHTTPURL,
        credential: GitCredential?,
        helper: HelperOutcome?,
        limits: GitLimits
    ) async throws(GitWireError) -> RefAdvertisement {
        let result: Result<RefAdvertisement, GitWireError>
        var source: (@Sendable (GitHTTPURL) async -> GitCredential?)?
        if let helper { source = { url in await helper.ask(for: url) } }
        do {
            result = try await security.withTransport { transport in
                let client = HTTPClient(
                    transport: transport,
                    configuration: HTTPClient.Configuration(securityPolicy: security.policy)
                )
                let git = HTTPGitClient(
                    client: client,
                    credential: credential,
                    credentialSource: source,
                    timeout: .seconds(timeout),
                    deadline: .seconds(deadline),
                    limits: limits
                )
                do throws(GitWireError) {
                    return .success(
                        try await git.lsRemote(
                            target,
                            protocolVersion: protocolVersion ?? 2,
                            heads: heads,
                            tags: tags,
                            symref: symref || json
                        )
                    )
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw .transport(target.description, reason: "\(error)")
        }
        return try result.get()
    }

    /// The token `--token-env` names, for an HTTP repository; none for `git://` or without the
    /// option.
    private func token(for remote: GitRemote) throws -> GitCredential? {
        // Only a variable named here: a token in the environment is never sent to a host the
        // command line did not choose it for.
        guard case .http(let target) = remote, let tokenVariable else { return nil }
        guard let token = CommandContext.environment[tokenVariable], !token.isEmpty else {
            throw CommandFailure("--token-env \(tokenVariable): the variable is not set.", status: .usage)
        }
        return GitCredential(token: token, username: target.username)
    }

    /// A credential helper asked at most once, and what came of it: a credential, or the
    /// failure to report if the repository then refuses the request.
    final class HelperOutcome: Sendable {
        private let command: String
        private let end: ContinuousClock.Instant
        private let outcome = Mutex<(credential: Bool, failure: CommandFailure?)>((false, nil))

        /// The helper `command`, to finish by `end`.
        init(command: String, end: ContinuousClock.Instant) {
            self.command = command
            self.end = end
        }

        /// The helper's credential for `url`, or `nil` after noting why there is none.
        func ask(for url: GitHTTPURL) async -> GitCredential? {
            let left = max(.milliseconds(1), ContinuousClock.now.duration(to: end))
            do {
                let credential = try await GitCredentialHelper(command: command, timeout: left).credential(for: url)
                outcome.withLock { $0.credential = true }
                return credential
            } catch let failure as CommandFailure {
                outcome.withLock { $0.failure = failure }
            } catch {
                outcome.withLock {
                    $0.failure = CommandFailure("The credential helper failed: \(error).", status: .usage)
                }
            }
            return nil
        }

        /// Whether the helper gave a credential.
        var gaveCredential: Bool { outcome.withLock { $0.credential } }
        /// Why the helper gave none, if it was asked and failed.
        var failure: CommandFailure? { outcome.withLock { $0.failure } }
    }

    // MARK: - Output

    /// What `git ls-remote` prints for `advertisement`, the server's names escaped.
    static func output(
        _ advertisement: RefAdvertisement,
        heads: Bool = false,
        tags: Bool = false,
        refsOnly: Bool = false,
        symref: Bool = false,
        patterns: [RefPattern] = []
    ) -> String {
        // Chosen by their own names, then escaped for the terminal.
        var listed = advertisement
        listed.refs = advertisement.listed(heads: heads, tags: tags, refsOnly: refsOnly, patterns: patterns)
        return listed.escapedForTerminal().lsRemoteOutput(symref: symref)
    }

    /// The refs `git ls-remote` would print, as JSON values.
    static func json(
        _ advertisement: RefAdvertisement,
        heads: Bool,
        tags: Bool,
        refsOnly: Bool,
        patterns: [RefPattern]
    ) -> Listing {
        let targets = advertisement.symbolicTargets
        let refs = advertisement.listed(heads: heads, tags: tags, refsOnly: refsOnly, patterns: patterns).map {
            Listing.Ref(name: $0.name, objectID: $0.objectID, symrefTarget: targets[$0.name])
        }
        return Listing(refs: refs)
    }

    /// `--json`'s document.
    struct Listing: Encodable {
        var refs: [Ref]

        struct Ref: Encodable {
            var name: String
            var objectID: String
            var symrefTarget: String?

            enum CodingKeys: String, CodingKey {
                case name
                case objectID = "object_id"
                case symrefTarget = "symref_target"
            }
        }
    }

    // MARK: - Failures

    static func status(for error: GitWireError) -> ExitStatus {
        switch error {
        case .invalidURL: .usage
        case .hostNotFound, .connectionRefused, .connectionLost, .timedOut, .refused, .transport: .network
        case .server, .notFound, .unauthorized, .forbidden: .clientError
        case .unexpectedStatus(_, let status): (500...599).contains(status) ? .serverError : .clientError
        case .malformed, .limitExceeded: .invalidResponse
        }
    }

    /// The library's message, with the option that changes what it names.
    static func message(for error: GitWireError, credentialGiven: Bool = false) -> String {
        switch error {
        case .timedOut(let address, let duration):
            "No answer from \(address) within \(duration.seconds) s: check the server, or raise --timeout (each step) "
                + "or --deadline (in all)."
        case .limitExceeded:
            error.description + " (Options: --max-refs, --max-bytes.)"
        case .refused(_, let host, let reason):
            reason + " --allow-http \(host)."
        case .unauthorized(let address, credentialsSent: false) where credentialGiven:
            "\(address) answered from another host it sent the request to, which asked for credentials (HTTP 401): "
                + "the credential given goes to \(address)'s own host only."
        case .forbidden(let address, credentialsSent: false) where credentialGiven:
            "\(address) does not allow access (HTTP 403) and did not ask for credentials (HTTP 401), so the "
                + "credential given was not sent: check the address."
        case .unauthorized(_, credentialsSent: false), .forbidden(_, credentialsSent: false):
            error.description + " Use --token-env or --credential-helper."
        default:
            error.description
        }
    }
}
