import Courier
import CourierAsyncHTTPClient
import GitWire
import HTTPTypes

/// The samples of the `GitWire` module (its `///` examples and its DocC catalog), each in the
/// context it takes for granted. Nothing calls them: the build compiles them.
enum GitWireSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    /// What a program does with a packet.
    static func handle(_ packet: PktLine) {}

    // MARK: - GitWire.docc/GitWire.md, AsyncGitClient.swift

    static func asyncGitClient() async throws {
        for try await ref in AsyncGitClient().refs(try GitURL("git://127.0.0.1/project.git")) {
            print(ref.objectID, ref.name)
        }
    }

    // MARK: - BlockingGitClient.swift

    /// `lsRemote` blocks the thread: it is called from a function that is not `async`.
    static func blockingGitClient() throws {
        let client = BlockingGitClient(timeout: .seconds(5), deadline: .seconds(60))
        let advertisement = try client.lsRemote(try GitURL("git://127.0.0.1/project.git"), symref: true)
        keep(advertisement)
    }

    // MARK: - RefAdvertisement.swift

    static func lsRemoteOutput(advertisement: RefAdvertisement) {
        print(advertisement.lsRemoteOutput(heads: true), terminator: "")
    }

    // MARK: - GitLimits.swift

    static func gitLimits() {
        let client = BlockingGitClient(limits: GitLimits(maximumRefs: 10_000, maximumBytes: 4 << 20))
        keep(client)
    }

    // MARK: - PktLine.swift

    // swift-format-ignore
    static func pktLine() throws {
        var bytes = try PktLine.data(Array("command=ls-refs\n".utf8)).encoded()  // "0014command=ls-refs\n"
        bytes += try PktLine.flush.encoded()                                     // "0000"
        keep(bytes)
    }

    // swift-format-ignore
    static func pktLineDecoder(chunk: [UInt8]) throws {
        var decoder = PktLineDecoder()
        decoder.append(chunk)
        while let packet = try decoder.next() { handle(packet) }   // nil: wait for more bytes
    }

    // MARK: - GitWire.docc/GitWire.md, HTTPGitClient.swift

    static func httpGitClient() async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            let git = HTTPGitClient(client: HTTPClient(transport: transport))
            let url = try GitHTTPURL("https://github.com/apple/swift-nio.git")
            for try await ref in git.refs(url, tags: true) where ref.name.hasPrefix("refs/tags/") {
                print(ref.objectID, ref.name)
            }
        }
    }

    // MARK: - GitCredential.swift

    static func gitCredential(token: String, client: HTTPClient) {
        let credential = GitCredential(token: token)  // user x-access-token, as hosts take tokens
        let client = HTTPGitClient(client: client, credential: credential)
        keep(client)
    }

    // MARK: - GitHTTPURL.swift

    static func gitHTTPURL() throws {
        let url = try GitHTTPURL("https://github.com/apple/swift-nio.git")
        print(url.infoRefs)  // https://github.com/apple/swift-nio.git/info/refs?service=git-upload-pack
    }

    // MARK: - GitRemote.swift

    static func gitRemote() throws {
        switch try GitRemote("https://github.com/apple/swift-nio.git") {
        case .daemon(let url): print("git daemon at", url.host)
        case .http(let url): print("smart HTTP at", url)
        }
    }

    // MARK: - InfoRefsReader.swift

    static func infoRefsReader(response: StreamedResponse, url: GitHTTPURL) async throws {
        let contentType = response.head.headerFields[.contentType]
        var reader = try InfoRefsReader(contentType: contentType, address: url.description)
        for try await chunk in response.body {
            for ref in try reader.read(chunk) { print(ref.objectID, ref.name) }
        }
        try reader.finish()
    }

    // MARK: - RefPattern.swift

    static func refPattern() {
        let pattern = RefPattern("v1.*")
        print(pattern.matches("refs/tags/v1.2"))  // true
    }
}
