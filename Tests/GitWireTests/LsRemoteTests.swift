import CourierTestTraits
import Foundation
import GitWire
import Synchronization
import Testing

/// Our ls-remote against `git ls-remote`, byte for byte, on repositories served by a real
/// `git daemon`. The blocking client runs on threads of its own, as it must.
@Suite(.loadLimited, .enabled(if: GitDaemon.isAvailable, "needs git"), .serialized)
struct LsRemoteTests {
    /// What the blocking client prints for `arguments`, formatted as git does.
    private func ours(_ url: String, _ flags: [String], protocolVersion: Int) async throws -> String {
        let target = try GitURL(url)
        let heads = flags.contains("--heads")
        let tags = flags.contains("--tags")
        let symref = flags.contains("--symref")
        let refsOnly = flags.contains("--refs")
        let result: Result<RefAdvertisement, GitWireError> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: Result { () throws(GitWireError) in
                        try BlockingGitClient(timeout: .seconds(60)).lsRemote(
                            target,
                            protocolVersion: protocolVersion,
                            heads: heads,
                            tags: tags,
                            symref: symref
                        )
                    }
                )
            }.start()
        }
        return try result.get().lsRemoteOutput(heads: heads, tags: tags, refsOnly: refsOnly, symref: symref)
    }

    /// The same through the SwiftNIO client, with the refs counted as they stream in.
    private func oursAsync(_ url: String, _ flags: [String], protocolVersion: Int) async throws -> String {
        let target = try GitURL(url)
        let heads = flags.contains("--heads")
        let tags = flags.contains("--tags")
        let symref = flags.contains("--symref")
        let streamedCount = Counter()
        let advertisement = try await AsyncGitClient(timeout: .seconds(60)).lsRemote(
            target,
            protocolVersion: protocolVersion,
            heads: heads,
            tags: tags,
            symref: symref
        ) { _ in streamedCount.increment() }
        #expect(streamedCount.value == advertisement.refs.count, "every ref was handed over as it arrived")
        return advertisement.lsRemoteOutput(
            heads: heads,
            tags: tags,
            refsOnly: flags.contains("--refs"),
            symref: symref
        )
    }

    private func theirs(
        _ daemon: GitDaemon,
        _ url: String,
        _ flags: [String],
        protocolVersion: Int
    ) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result { try daemon.gitLsRemote(flags + [url], protocolVersion: protocolVersion) }
                )
            }.start()
        }
    }

    @Test func matchesGitForEveryRepositoryFlagAndProtocol() async throws {
        let daemon = try await GitDaemon.start()
        defer { daemon.stop() }
        for repository in ["full.git", "many.git", "detached.git", "empty.git", "shallow.git", "sha256.git"] {
            for version in [0, 2] {
                for flags in [
                    [], ["--symref"], ["--heads"], ["--tags"], ["--refs"], ["--heads", "--tags", "--symref"],
                ] {
                    let url = daemon.url(repository)
                    let expected = try await theirs(daemon, url, flags, protocolVersion: version)
                    let actual = try await ours(url, flags, protocolVersion: version)
                    #expect(actual == expected, "\(repository) protocol \(version) \(flags)")
                    let streamed = try await oursAsync(url, flags, protocolVersion: version)
                    #expect(streamed == expected, "async client: \(repository) protocol \(version) \(flags)")
                }
            }
        }
        let full = try await theirs(daemon, daemon.url("full.git"), [], protocolVersion: 0)
        #expect(full.contains("refs/tags/tag-of-tag^{}"), "the fixture has a tag of a tag")
        #expect(
            try await theirs(daemon, daemon.url("many.git"), ["--heads"], protocolVersion: 0).split(separator: "\n")
                .count == 3002
        )
        let sha256 = try await theirs(daemon, daemon.url("sha256.git"), [], protocolVersion: 0)
        #expect(sha256.split(separator: "\n").allSatisfy { $0.split(separator: "\t")[0].count == 64 })
    }

    @Test func shallowLinesAndCapabilitiesAreKept() async throws {
        let daemon = try await GitDaemon.start()
        defer { daemon.stop() }
        let shallow = try await AsyncGitClient().lsRemote(try GitURL(daemon.url("shallow.git")))
        let head = try await theirs(daemon, daemon.url("shallow.git"), ["--heads"], protocolVersion: 0)
        #expect(shallow.shallow == [String(head.prefix(40))], "the one commit a depth-1 clone holds")
        #expect(shallow.symrefs.map(\.target) == ["refs/heads/main"])
        let sha256 = try await AsyncGitClient().lsRemote(try GitURL(daemon.url("sha256.git")), protocolVersion: 2)
        #expect(sha256.protocolVersion == 2)
        #expect(sha256.capabilities.contains("object-format=sha256"))
    }

    @Test func aMissingRepositoryIsTheServersMessage() async throws {
        let daemon = try await GitDaemon.start()
        defer { daemon.stop() }
        await #expect {
            _ = try await ours(daemon.url("nope.git"), [], protocolVersion: 0)
        } throws: { error in
            (error as? GitWireError)
                == .server(daemon.url("nope.git"), message: "access denied or repository not exported: /nope.git")
        }
    }

    @Test func refsStreamAsAnAsyncSequence() async throws {
        let daemon = try await GitDaemon.start()
        defer { daemon.stop() }
        var names: [String] = []
        for try await ref in AsyncGitClient().refs(try GitURL(daemon.url("many.git"))) { names.append(ref.name) }
        #expect(names.count == 3008)  // HEAD, 3,002 branches, 3 tags and 2 peeled tags
        #expect(names.first == "HEAD")
        await #expect {
            for try await _ in AsyncGitClient().refs(try GitURL("git://127.0.0.1:9/x.git")) {}
        } throws: { error in
            (error as? GitWireError) == .connectionRefused("git://127.0.0.1:9/x.git")
        }
    }

    @Test func aClosedPortIsRefused() async throws {
        await #expect {
            _ = try await ours("git://127.0.0.1:9/x.git", [], protocolVersion: 0)
        } throws: { error in
            (error as? GitWireError) == .connectionRefused("git://127.0.0.1:9/x.git")
        }
    }

    @Test func controlBytesInTheAddressAreRefused() {
        #expect(throws: GitWireError.self) { try GitURL("git://127.0.0.1/repo\u{0}host=evil") }
        #expect(throws: GitWireError.self) { try GitURL("git://127.0.0.1/repo\nfoo") }
        #expect(throws: GitWireError.self) { try GitURL("git://exa\u{0}mple/repo") }
        #expect(throws: GitWireError.self) { try GitURL("https://example.org/repo") }
        #expect((try? GitURL("git://[::1]:9419/r.git"))?.port == 9419)
        #expect((try? GitURL("git://[::1]:9419/r.git"))?.host == "::1")
    }
}

/// A count shared with a `@Sendable` callback.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
