/// How much a git server may send before a client gives up: a hostile or broken server cannot
/// make one hold unbounded memory.
///
/// The defaults are far above any real repository (the largest public ones advertise a few
/// hundred thousand refs in a few tens of MiB). Lower them where the servers are not trusted.
///
/// ```swift
/// let client = BlockingGitClient(limits: GitLimits(maximumRefs: 10_000, maximumBytes: 4 << 20))
/// ```
public struct GitLimits: Sendable, Hashable {
    /// The most refs an advertisement may hold, peeled tags included; also the most capability
    /// lines, shallow lines and symbolic refs.
    public var maximumRefs: Int
    /// The most bytes a server may send in one conversation, pkt-line framing included.
    public var maximumBytes: Int

    /// One million refs and 256 MiB.
    public static let `default` = GitLimits()

    /// Limits of `maximumRefs` refs and `maximumBytes` bytes.
    ///
    /// - Precondition: neither is negative.
    public init(maximumRefs: Int = 1_000_000, maximumBytes: Int = 256 << 20) {
        precondition(maximumRefs >= 0 && maximumBytes >= 0, "git limits cannot be negative")
        self.maximumRefs = maximumRefs
        self.maximumBytes = maximumBytes
    }

    // MARK: - Checks

    /// Throws when `count` refs are more than the limit.
    func check(refs count: Int, address: String) throws(GitWireError) {
        guard count <= maximumRefs else {
            throw .limitExceeded(
                address,
                reason: "more than \(maximumRefs) refs (GitLimits.maximumRefs); raise the limit if the repository "
                    + "really has that many"
            )
        }
    }

    /// Throws when `count` capability, shallow or symbolic-ref lines are more than the limit.
    func check(lines count: Int, address: String) throws(GitWireError) {
        guard count <= maximumRefs else {
            throw .limitExceeded(
                address,
                reason: "more than \(maximumRefs) capability, shallow or symbolic-ref lines (GitLimits.maximumRefs)"
            )
        }
    }

    /// Throws when `count` bytes are more than the limit.
    func check(bytes count: Int, address: String) throws(GitWireError) {
        guard count <= maximumBytes else {
            throw .limitExceeded(
                address,
                reason: "more than \(maximumBytes) bytes (GitLimits.maximumBytes); raise the limit if the "
                    + "repository really advertises that much"
            )
        }
    }
}
