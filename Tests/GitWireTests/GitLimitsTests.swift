import CourierTestServer
import CourierTestTraits
import Foundation
import GitWire
import Testing

/// Both clients against servers that send too much, too slowly or without end: each ends with
/// a ``GitWireError`` that names what ran out, never a hang or unbounded memory.
@Suite(.loadLimited, .serialized)
struct GitLimitsTests {
    private typealias Outcome = Result<RefAdvertisement, GitWireError>

    /// The blocking client's answer, from a thread of its own.
    private func blocking(_ client: BlockingGitClient, _ url: String) async throws -> Outcome {
        let target = try GitURL(url)
        return await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: Result { () throws(GitWireError) in try client.lsRemote(target) }
                )
            }.start()
        }
    }

    /// The async client's answer.
    private func async(_ client: AsyncGitClient, _ url: String) async throws -> Outcome {
        let target = try GitURL(url)
        do {
            return .success(try await client.lsRemote(target))
        } catch {
            return .failure(error)
        }
    }

    private func refLimit(_ url: String) -> GitWireError {
        .limitExceeded(
            url,
            reason: "more than 5 refs (GitLimits.maximumRefs); raise the limit if the repository really has that many"
        )
    }

    private func byteLimit(_ url: String, _ limit: Int) -> GitWireError {
        .limitExceeded(
            url,
            reason: "more than \(limit) bytes (GitLimits.maximumBytes); raise the limit if the repository really "
                + "advertises that much"
        )
    }

    // MARK: - Refs and bytes

    @Test(arguments: [false, true])
    func moreRefsThanTheLimitEndWithTheLimitError(async useAsync: Bool) async throws {
        let server = try HostileGitServer(answer: HostileAnswer.chunks(of: HostileAnswer.refs(100), size: 1 << 16))
        let limits = GitLimits(maximumRefs: 5)
        let outcome =
            useAsync
            ? try await async(AsyncGitClient(timeout: .seconds(30), limits: limits), server.url())
            : try await blocking(BlockingGitClient(timeout: .seconds(30), limits: limits), server.url())
        #expect(throws: refLimit(server.url())) { try outcome.get() }
        #expect(
            refLimit(server.url()).description
                == "\(server.url()) sent more than this client allows: more than 5 refs (GitLimits.maximumRefs); "
                + "raise the limit if the repository really has that many."
        )
    }

    @Test(arguments: [false, true])
    func refsUpToTheLimitAreRead(async useAsync: Bool) async throws {
        let server = try HostileGitServer(answer: HostileAnswer.chunks(of: HostileAnswer.refs(5), size: 1 << 16))
        let limits = GitLimits(maximumRefs: 5, maximumBytes: HostileAnswer.refs(5).count)
        let outcome =
            useAsync
            ? try await async(AsyncGitClient(timeout: .seconds(30), limits: limits), server.url())
            : try await blocking(BlockingGitClient(timeout: .seconds(30), limits: limits), server.url())
        #expect(try outcome.get().refs.count == 5)
    }

    @Test(arguments: [false, true])
    func moreBytesThanTheLimitEndWithTheLimitError(async useAsync: Bool) async throws {
        let server = try HostileGitServer(answer: HostileAnswer.chunks(of: HostileAnswer.refs(1000), size: 1 << 16))
        let limits = GitLimits(maximumBytes: 4096)
        let outcome =
            useAsync
            ? try await async(AsyncGitClient(timeout: .seconds(30), limits: limits), server.url())
            : try await blocking(BlockingGitClient(timeout: .seconds(30), limits: limits), server.url())
        #expect(throws: byteLimit(server.url(), 4096)) { try outcome.get() }
    }

    @Test func theReaderCountsTheBytesOfItsPackets() throws {
        var reader = AdvertisementReader(address: "git://127.0.0.1/x.git", limits: GitLimits(maximumBytes: 100))
        let packet = PktLine.data(Array("\(HostileAnswer.objectID) refs/heads/main\n".utf8))  // 61 bytes
        try reader.read(packet)
        #expect(reader.byteCount == 61)
        #expect(throws: byteLimit("git://127.0.0.1/x.git", 100)) { try reader.read(packet) }
    }

    /// Capability and shallow lines are held too: the ref limit bounds them (a 256 MiB answer
    /// of empty capability packets would be 67 million strings).
    @Test func capabilityAndShallowLinesStopAtTheRefLimit() throws {
        let limits = GitLimits(maximumRefs: 3)
        let lineLimit = GitWireError.limitExceeded(
            "git://127.0.0.1/x.git",
            reason: "more than 3 capability, shallow or symbolic-ref lines (GitLimits.maximumRefs)"
        )
        var v2 = AdvertisementReader(address: "git://127.0.0.1/x.git", limits: limits)
        try v2.read(.data(Array("version 2\n".utf8)))
        for _ in 0..<3 { try v2.read(.data([])) }
        #expect(throws: lineLimit) { try v2.read(.data([])) }

        var v0 = AdvertisementReader(address: "git://127.0.0.1/x.git", limits: limits)
        try v0.read(.data(Array("\(HostileAnswer.objectID) refs/heads/main\n".utf8)))
        let shallow = PktLine.data(Array("shallow \(HostileAnswer.objectID)\n".utf8))
        for _ in 0..<3 { try v0.read(shallow) }
        #expect(throws: lineLimit) { try v0.read(shallow) }
    }

    /// Refs and their capabilities, repeated on every line, keep one set of symbolic refs.
    @Test func capabilitiesAreReadFromTheFirstRefOnly() throws {
        var reader = AdvertisementReader(address: "git://127.0.0.1/x.git")
        for name in ["HEAD", "refs/heads/main", "refs/heads/other"] {
            try reader.read(
                .data(Array("\(HostileAnswer.objectID) \(name)\u{0}symref=HEAD:refs/heads/\(name)\n".utf8))
            )
        }
        #expect(reader.advertisement.symrefs.map(\.target) == ["refs/heads/HEAD"])
        #expect(reader.advertisement.refs.map(\.name) == ["HEAD", "refs/heads/main", "refs/heads/other"])
    }

    // MARK: - Without end

    /// `shallow` lines are no refs: only the byte limit ends them, and the client stops reading
    /// there (the server's total is the limit plus what the kernel buffers, not gigabytes).
    @Test(arguments: [false, true])
    func anEndlessStreamOfPacketsEndsWithTheByteLimit(async useAsync: Bool) async throws {
        let server = try HostileGitServer(answer: HostileAnswer.endlessShallowLines())
        let limit = 1 << 20
        let limits = GitLimits(maximumBytes: limit)
        let outcome =
            useAsync
            ? try await async(AsyncGitClient(timeout: .seconds(60), limits: limits), server.url())
            : try await blocking(BlockingGitClient(timeout: .seconds(60), limits: limits), server.url())
        #expect(throws: byteLimit(server.url(), limit)) { try outcome.get() }
        let sent = await server.bytesSent()
        #expect(sent > limit)
        #expect(sent < 64 << 20, "the client stopped reading at the limit")
    }

    // MARK: - Time

    /// One byte every 200 ms keeps every read within its timeout; the deadline ends it.
    @Test(arguments: [Duration.seconds(5), .seconds(Int64.max)])
    func aTricklingServerMeetsTheBlockingClientsDeadline(timeout: Duration) async throws {
        // 60 s of bytes at most: if the deadline did not hold, the test would end anyway.
        let server = try HostileGitServer(
            pause: .milliseconds(200),
            answer: HostileAnswer.chunks(of: Array(HostileAnswer.refs(300).prefix(300)), size: 1)
        )
        let outcome = try await blocking(BlockingGitClient(timeout: timeout, deadline: .seconds(1)), server.url())
        #expect(throws: GitWireError.timedOut(server.url(), after: .seconds(1))) { try outcome.get() }
    }

    /// Silence within the deadline is the step timeout's to end.
    @Test func aSilentServerMeetsTheStepTimeoutBeforeTheDeadline() async throws {
        let server = try HostileGitServer(pause: .seconds(5), answer: HostileAnswer.chunks(of: [0, 0], size: 1))
        let outcome = try await blocking(BlockingGitClient(timeout: .seconds(1), deadline: .seconds(60)), server.url())
        #expect(throws: GitWireError.timedOut(server.url(), after: .seconds(1))) { try outcome.get() }
    }
}
