import ArgumentParser
import Foundation
import GitWire

/// `courier ls-remote git://host[:port]/path`: what `git ls-remote` prints.
struct LsRemote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls-remote",
        abstract: "List a repository's refs over the git:// protocol, as git ls-remote does.",
        discussion: """
            Examples:
              courier ls-remote git://127.0.0.1:9418/project.git
              courier ls-remote git://example.org/repo.git --heads --symref --protocol 2
            """
    )

    @Argument(help: "git://host[:port]/path")
    var url: String

    @Flag(help: "Only refs under refs/heads/.")
    var heads = false

    @Flag(help: "Only refs under refs/tags/.")
    var tags = false

    @Flag(help: "No peeled tags (^{}) and no pseudo-refs such as HEAD.")
    var refs = false

    @Flag(help: "Also print what symbolic refs such as HEAD point to.")
    var symref = false

    @Option(name: .customLong("protocol"), help: "The wire protocol version: 0 or 2.")
    var protocolVersion = 0

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

    /// Refs in an advertisement: one to a hundred million.
    static let refCounts = 1...100_000_000
    /// Bytes in an advertisement: a pkt-line to 16 GiB.
    static let byteCounts = 4...(16 << 30)

    func validate() throws {
        guard protocolVersion == 0 || protocolVersion == 2 else {
            throw ValidationError("--protocol must be 0 or 2 (got \(protocolVersion)).")
        }
    }

    func run() async throws {
        let target: GitURL
        do {
            target = try GitURL(url)
        } catch {
            throw CommandFailure(error.description, status: .usage)
        }
        let client = BlockingGitClient(
            timeout: .seconds(timeout),
            deadline: .seconds(deadline),
            limits: GitLimits(maximumRefs: maxRefs, maximumBytes: maxBytes)
        )
        let (version, heads, tags, symref) = (protocolVersion, heads, tags, symref)
        // The blocking client runs on a thread of its own, off the concurrency pool.
        let result: Result<RefAdvertisement, GitWireError> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: Result { () throws(GitWireError) in
                        try client.lsRemote(target, protocolVersion: version, heads: heads, tags: tags, symref: symref)
                    }
                )
            }.start()
        }
        let advertisement: RefAdvertisement
        do {
            advertisement = try result.get()
        } catch {
            throw CommandFailure(Self.message(for: error), status: Self.status(for: error))
        }
        Terminal.write(Data(Self.output(advertisement, heads: heads, tags: tags, refsOnly: refs, symref: symref).utf8))
    }

    /// What `git ls-remote` prints for `advertisement`, the server's names escaped.
    static func output(
        _ advertisement: RefAdvertisement,
        heads: Bool = false,
        tags: Bool = false,
        refsOnly: Bool = false,
        symref: Bool = false
    ) -> String {
        advertisement.escapedForTerminal().lsRemoteOutput(heads: heads, tags: tags, refsOnly: refsOnly, symref: symref)
    }

    static func status(for error: GitWireError) -> ExitStatus {
        switch error {
        case .invalidURL: .usage
        case .hostNotFound, .connectionRefused, .connectionLost, .timedOut, .refused, .transport: .network
        case .server, .notFound, .unauthorized, .forbidden: .clientError
        case .unexpectedStatus(_, let status): (500...599).contains(status) ? .serverError : .clientError
        case .malformed, .limitExceeded: .invalidResponse
        }
    }

    /// The library's message, with the option that changes the limit it names.
    static func message(for error: GitWireError) -> String {
        switch error {
        case .timedOut(let address, let duration):
            "No answer from \(address) within \(duration.seconds) s: check the server, or raise --timeout (each step) "
                + "or --deadline (in all)."
        case .limitExceeded:
            error.description + " (Options: --max-refs, --max-bytes.)"
        default:
            error.description
        }
    }
}
