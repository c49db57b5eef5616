import CourierTestTraits
import Foundation
import GitWire
import Testing

/// The HTTP side of GitWire without a server: the `info/refs` answer, addresses, patterns and
/// credentials.
@Suite(.loadLimited)
struct InfoRefsReaderTests {
    private static let oid = String(repeating: "a", count: 40)
    private static let other = String(repeating: "b", count: 40)

    private static func packet(_ text: String) -> String {
        let hex = String(text.utf8.count + 4, radix: 16)
        return String(repeating: "0", count: 4 - hex.count) + hex + text
    }

    /// A v0 smart answer: the service line and its flush, then the refs and their flush.
    private static let smartV0 =
        packet("# service=git-upload-pack\n") + "0000"
        + packet("\(oid) HEAD\0symref=HEAD:refs/heads/main agent=git/2\n") + packet("\(oid) refs/heads/main\n")
        + packet("\(other) refs/tags/v1\n") + "0000"

    @Test func aSmartAnswerReadsTheSameHoweverItIsSplit() throws {
        let bytes = Array(Self.smartV0.utf8)
        for size in [1, 2, 3, 5, 7, 64, bytes.count] {
            var reader = try InfoRefsReader(
                contentType: "application/x-git-upload-pack-advertisement",
                address: "a"
            )
            var names: [String] = []
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                names += try reader.read(bytes[start..<end]).map(\.name)
                start = end
            }
            try reader.finish()
            #expect(names == ["HEAD", "refs/heads/main", "refs/tags/v1"], "pieces of \(size)")
            #expect(reader.isComplete)
            #expect(reader.packets.advertisement.symrefs.map(\.target) == ["refs/heads/main"])
        }
    }

    @Test func version2StartsWithoutTheServiceLine() throws {
        var reader = try InfoRefsReader(
            contentType: "Application/X-Git-Upload-Pack-Advertisement; charset=x",
            address: "a"
        )
        let text =
            Self.packet("version 2\n") + Self.packet("ls-refs=unborn\n") + Self.packet("object-format=sha1\n")
            + "0000"
        #expect(try reader.read(Array(text.utf8)).isEmpty)
        #expect(reader.isComplete)
        #expect(reader.packets.state == .awaitingRefs)
        let request = String(
            decoding: try reader.packets.lsRefsRequest(heads: true, tags: false, symref: true),
            as: UTF8.self
        )
        #expect(
            request
                == "0014command=ls-refs\n0017object-format=sha1\n00010009peel\n000csymrefs\n000bunborn\n"
                + "001bref-prefix refs/heads/\n0000"
        )
    }

    @Test func unbornIsAskedOnlyOfAServerThatOffersIt() throws {
        var reader = try InfoRefsReader(contentType: "application/x-git-upload-pack-advertisement", address: "a")
        _ = try reader.read(Array((Self.packet("version 2\n") + Self.packet("ls-refs\n") + "0000").utf8))
        let request = String(
            decoding: try reader.packets.lsRefsRequest(heads: false, tags: false, symref: false),
            as: UTF8.self
        )
        #expect(request == "0014command=ls-refs\n00010009peel\n0000")
    }

    @Test func aBrokenSmartAnswerIsMalformed() throws {
        for (body, reason) in [
            ("0000", "expected '# service=git-upload-pack', got a flush packet"),
            (
                Self.packet("# service=git-receive-pack\n"),
                "expected '# service=git-upload-pack', got '# service=git-receive-pack'"
            ),
            (Self.packet("ERR no such repository\n"), nil),
        ] {
            var reader = try InfoRefsReader(contentType: "application/x-git-upload-pack-advertisement", address: "a")
            #expect(throws: GitWireError.self) {
                _ = try reader.read(Array(body.utf8))
            }
            if let reason {
                #expect(throws: GitWireError.malformed("a", reason: reason)) {
                    var again = try InfoRefsReader(
                        contentType: "application/x-git-upload-pack-advertisement",
                        address: "a"
                    )
                    _ = try again.read(Array(body.utf8))
                }
            }
        }
        var cut = try InfoRefsReader(contentType: "application/x-git-upload-pack-advertisement", address: "a")
        _ = try cut.read(Array(Self.smartV0.utf8.dropLast(4)))
        #expect(
            throws: GitWireError.malformed("a", reason: "the advertisement ended before the flush packet that ends it")
        ) {
            try cut.finish()
        }
    }

    @Test func aDumbFileIsReadWithItsHead() throws {
        var reader = try InfoRefsReader(contentType: "text/plain", address: "a")
        #expect(reader.kind == .dumb)
        let file = "\(Self.oid)\trefs/heads/main\n\(Self.other)\trefs/tags/v1\n\(Self.oid)\trefs/tags/v1^{}"
        #expect(try reader.read(Array(file.utf8)).isEmpty, "a dumb file's refs come at the end")
        try reader.finish()
        let symbolic = try reader.dumbAdvertisement(head: Array("ref: refs/heads/main\n".utf8))
        #expect(symbolic.refs.map(\.name) == ["HEAD", "refs/heads/main", "refs/tags/v1", "refs/tags/v1^{}"])
        #expect(symbolic.refs.first?.objectID == Self.oid)
        #expect(symbolic.symrefs.map(\.target) == ["refs/heads/main"])
        #expect(
            try reader.dumbAdvertisement(head: Array("ref: refs/heads/gone\n".utf8)).refs.first?.name
                == "refs/heads/main"
        )
        #expect(
            try reader.dumbAdvertisement(head: Array("\(Self.other)\n".utf8)).refs.first
                == AdvertisedRef(objectID: Self.other, name: "HEAD")
        )
        #expect(try reader.dumbAdvertisement(head: nil).refs.count == 3)
    }

    @Test func whatIsNotARepositoryIsSaidSo() throws {
        #expect(throws: GitWireError.self) {
            _ = try InfoRefsReader(contentType: "text/html; charset=utf-8", address: "a")
        }
        var reader = try InfoRefsReader(contentType: nil, address: "a")
        #expect(throws: GitWireError.self) { _ = try reader.read(Array("Welcome!\n".utf8)) }
        var long = try InfoRefsReader(contentType: "text/plain", address: "a")
        #expect(throws: GitWireError.malformed("a", reason: "an info/refs line is longer than 65520 bytes")) {
            _ = try long.read([UInt8](repeating: 0x61, count: 70_000))
        }
        var limited = try InfoRefsReader(contentType: "text/plain", address: "a", limits: GitLimits(maximumRefs: 1))
        #expect(throws: GitWireError.self) {
            _ = try limited.read(Array("\(Self.oid)\ta\n\(Self.oid)\tb\n".utf8))
        }
    }

    // MARK: - Addresses

    @Test func addressesAreCheckedAndNeverShowAPassword() throws {
        let url = try GitHTTPURL("https://alice@example.org:8443/group/repo.git/")
        #expect(url.description == "https://example.org:8443/group/repo.git")
        #expect(url.username == "alice")
        #expect(
            url.infoRefs.absoluteString == "https://example.org:8443/group/repo.git/info/refs?service=git-upload-pack"
        )
        #expect(url.uploadPack.absoluteString == "https://example.org:8443/group/repo.git/git-upload-pack")
        #expect(
            throws: GitWireError.invalidURL(
                "https://…@example.org/r.git",
                reason:
                    "it holds a password, which process lists and shell histories would show; give it as a credential instead"
            )
        ) {
            try GitHTTPURL("https://alice:hunter2@example.org/r.git")
        }
        for bad in [
            "https://example.org", "https://example.org/", "https:///r.git", "https://example.org/r.git?x=1",
            "https://example.org/r.git#f", "https://exa mple.org/r.git", "https://example.org/r\n.git",
        ] {
            #expect(throws: GitWireError.self, "\(bad)") { try GitHTTPURL(bad) }
        }
        #expect(try GitRemote("git://example.org/r.git") == .daemon(try GitURL("git://example.org/r.git")))
        #expect(try GitRemote("HTTPS://example.org/r.git") == .http(try GitHTTPURL("https://example.org/r.git")))
        #expect(throws: GitWireError.invalidURL("ssh://…@example.org/r.git", reason: "use git://, https:// or http://"))
        {
            try GitRemote("ssh://git:pw@example.org/r.git")
        }
    }

    @Test func noPasswordReachesAMessage() {
        for text in [
            "https://alice:s3cr#t@github.com/x.git", "https://alice:1234#x@github.com/x.git",
            "https:alice:s3cret@host/r", "https://alice:s3/cret@host/r.git", "git://u:s3cret@host:9418/x",
            "git://u:s3/cret@host/x", "ssh://u:s3cret@host/r", "https://u:s3cret@ho st/r\n",
            "https://alice:s3cret@\u{301}example.com/r.git", "git://u:s3cret@\u{301}h:9418/x",
        ] {
            do {
                _ = try GitRemote(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(!error.description.contains("s3"), "\(error.description)")
            }
        }
        #expect(throws: GitWireError.self) { try GitHTTPURL("https://a%3Ab@example.org/r.git") }
        #expect(throws: GitWireError.self) { try GitHTTPURL("https://x%0Ahost=evil@example.org/r.git") }
        #expect(throws: GitWireError.self) { try GitHTTPURL("https://example.org%0Ahost=github.com/r.git") }
        #expect(throws: GitWireError.self) { try GitHTTPURL("https://a:%FF@example.org/r.git") }
    }

    @Test func refsOnlyKeepsWhatGitCallsAWellFormedName() {
        var advertisement = RefAdvertisement(protocolVersion: 0)
        let names = [
            "HEAD", "refs/heads/main", "refs/stash", "refs/tags/v1^{}", "refs/heads/a..b", "refs/heads/x.lock",
            "refs/heads/.hidden", "refs/heads/sp ace", "refs/heads/a@{b", "refs/heads/ok@b", "refs/heads/end.",
            "refs/heads//double", "refs/notes/commits", "refs/heads/tilde~1", "refs/heads/q?", "refs/heads/caf\u{E9}",
            "refs/heads/a.lock/b", "refs/heads/dot.ok",
        ]
        advertisement.refs = names.map { AdvertisedRef(objectID: Self.oid, name: $0) }
        let listed = advertisement.listed(refsOnly: true).map(\.name)
        #expect(
            listed == [
                "refs/heads/main", "refs/heads/ok@b", "refs/notes/commits", "refs/heads/caf\u{E9}", "refs/heads/dot.ok",
            ]
        )
    }

    @Test func theDumbHeadCountsAgainstTheLimit() throws {
        var reader = try InfoRefsReader(contentType: "text/plain", address: "a", limits: GitLimits(maximumRefs: 2))
        _ = try reader.read(Array("\(Self.oid)\trefs/heads/main\n\(Self.oid)\trefs/heads/b\n".utf8))
        try reader.finish()
        #expect(try reader.dumbAdvertisement(head: nil).refs.count == 2)
        #expect(throws: GitWireError.self) { try reader.dumbAdvertisement(head: Array("ref: refs/heads/main".utf8)) }
        var bounded = try InfoRefsReader(contentType: "text/plain", address: "a", limits: GitLimits(maximumBytes: 10))
        #expect(throws: GitWireError.self) { _ = try bounded.read(Array("\(Self.oid)\n".utf8)) }
    }

    @Test func aCredentialNeverShowsItsPassword() {
        let credential = GitCredential(token: "ghp_secret")
        #expect(credential.username == "x-access-token")
        for shown in [
            "\(credential)", String(reflecting: credential),
            String(describing: Mirror(reflecting: credential).children.map(\.value)),
        ] {
            #expect(!shown.contains("ghp_secret"), "\(shown)")
        }
    }

    // MARK: - Patterns

    @Test(arguments: [
        ("main", "refs/heads/main", true), ("main", "refs/heads/domain", false), ("ain", "refs/heads/main", false),
        ("heads/main", "refs/heads/main", true), ("refs/heads/main", "refs/heads/main", true),
        ("HEAD", "HEAD", true), ("v1.*", "refs/tags/v1.0^{}", true), ("v1.?", "refs/tags/v1.2", true),
        ("v1.?", "refs/tags/v1.20", false), ("*", "HEAD", true), ("heads/*", "refs/heads/a/b", true),
        ("[a-c]*", "refs/heads/beta", true), ("[!a-c]*", "refs/heads/beta", true), ("[!r]*", "refs", false),
        ("[^a-c]*", "refs/heads/delta", true),
        ("[[:digit:]]*", "refs/tags/1.0", true), ("[[:digit:]]*", "refs/tags/v1", false),
        ("[[:nope:]]", "refs/x", false),
        ("[unclosed", "refs/heads/[unclosed", false), ("\\*", "refs/heads/*", true), ("\\*", "refs/heads/x", false),
        ("[]]", "refs/heads/]", true), ("[a-]", "refs/heads/-", true), ("trailing\\", "refs/trailing\\", false),
    ])
    func patternsMatchTheEndOfAName(pattern: String, name: String, matches: Bool) {
        #expect(RefPattern(pattern).matches(name) == matches)
    }

    @Test func manyStarsTakeLinearTime() {
        // A backtracking matcher would take exponential time here.
        let pattern = RefPattern(String(repeating: "*a", count: 200) + "b")
        #expect(!pattern.matches("refs/heads/" + String(repeating: "a", count: 4000)))
    }
}
