public import Courier
import Foundation
import HTTPTypes

/// Lists a repository's refs over git's HTTP protocols, as `git ls-remote https://…` does, on a
/// Courier `HTTPClient`: its TLS settings, security policy, proxies, redirects and middleware
/// apply to every request.
///
/// Protocol v2 (the default, as in git) asks for the capabilities with `Git-Protocol:
/// version=2`, then posts `ls-refs` with the ref prefixes `--heads` and `--tags` ask for; a
/// server that speaks only v0 answers with its whole advertisement, which is read instead. A
/// server that answers with a plain `info/refs` file (git's "dumb" protocol) is read as git
/// reads it, `HEAD` resolved from the `HEAD` file.
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let git = HTTPGitClient(client: HTTPClient(transport: transport))
///     let url = try GitHTTPURL("https://github.com/apple/swift-nio.git")
///     for try await ref in git.refs(url, tags: true) where ref.name.hasPrefix("refs/tags/") {
///         print(ref.objectID, ref.name)
///     }
/// }
/// ```
///
/// The ``credential`` goes, as git sends it, only once the repository's origin (scheme, host
/// and port) has asked for credentials with a 401, and then only to that origin: a repository
/// that never asks never sees it, the client's redirects drop it on the way to another origin,
/// and a repository that moved to one is asked without it.
public struct HTTPGitClient: Sendable {
    /// Sends the requests.
    public var client: HTTPClient
    /// Sent to the repository's origin with HTTP Basic authentication once it asks, if any.
    public var credential: GitCredential?
    /// Asked for a credential when the repository's origin asks for one (401) and there is no
    /// ``credential``: a credential helper, say. Called at most once a conversation, and never
    /// for a repository that does not ask; `nil` from it means there is none.
    public var credentialSource: (@Sendable (GitHTTPURL) async -> GitCredential?)?
    /// The longest silence: before an answer's head, and between pieces of its body.
    public var timeout: Duration
    /// The longest the whole conversation may take, every request included: a server that
    /// trickles a byte now and then cannot keep the client forever.
    public var deadline: Duration
    /// How many refs and bytes the server may send, over all its answers.
    public var limits: GitLimits

    /// The most a dumb repository's `HEAD` file may hold.
    static let longestHeadFile = 4096

    /// The most bytes read and dropped after the end of an answer before its transfer is
    /// stopped.
    static let longestTrailer = 64 << 10

    /// A client on `client` that sends `credential` (or what `credentialSource` gives) to the
    /// repository when it asks, gives up after
    /// `timeout` of silence or `deadline` in all, and reads at most `limits`. Durations are
    /// taken between a millisecond and a year.
    public init(
        client: HTTPClient,
        credential: GitCredential? = nil,
        credentialSource: (@Sendable (GitHTTPURL) async -> GitCredential?)? = nil,
        timeout: Duration = .seconds(10),
        deadline: Duration = .seconds(300),
        limits: GitLimits = .default
    ) {
        self.client = client
        self.credential = credential
        self.credentialSource = credentialSource
        self.timeout = timeout
        self.deadline = deadline
        self.limits = limits
    }

    /// The refs of `url` as they arrive; see ``lsRemote(_:protocolVersion:heads:tags:symref:onRef:)``.
    ///
    /// `heads` and `tags` shape the request: a server on protocol v0 or the dumb protocol
    /// sends every ref whatever they say, so filter by name where only those count.
    public func refs(
        _ url: GitHTTPURL,
        protocolVersion: Int = 2,
        heads: Bool = false,
        tags: Bool = false,
        symref: Bool = false
    ) -> AdvertisedRefs {
        AdvertisedRefs(address: url.description, limits: limits) { onRef async throws(GitWireError) in
            try await lsRemote(
                url,
                protocolVersion: protocolVersion,
                heads: heads,
                tags: tags,
                symref: symref,
                onRef: onRef
            )
        }
    }

    /// The advertisement of `url`; `onRef` sees each ref as soon as its packet has arrived (a
    /// dumb repository's at the end, once `HEAD` is known).
    ///
    /// - Parameters:
    ///   - url: The repository.
    ///   - protocolVersion: 2 (the default) or 0.
    ///   - heads: With protocol v2, ask only for refs under `refs/heads/` (and `refs/tags/`
    ///     when `tags` is set too); v0 sends every ref and the caller filters.
    ///   - tags: With protocol v2, ask only for refs under `refs/tags/` (and `refs/heads/`
    ///     when `heads` is set too).
    ///   - symref: With protocol v2, ask for the targets of symbolic refs; v0 always has
    ///     `HEAD`'s.
    ///   - onRef: Called with each ref as it arrives, in order.
    /// - Throws: ``GitWireError``: ``GitWireError/notFound(_:)``,
    ///   ``GitWireError/unauthorized(_:credentialsSent:)`` and
    ///   ``GitWireError/forbidden(_:credentialsSent:)`` for the statuses git tells apart,
    ///   ``GitWireError/timedOut(_:after:)`` after `timeout` of silence or `deadline` in all,
    ///   ``GitWireError/limitExceeded(_:reason:)`` when the server sends more than `limits`.
    public func lsRemote(
        _ url: GitHTTPURL,
        protocolVersion: Int = 2,
        heads: Bool = false,
        tags: Bool = false,
        symref: Bool = false,
        onRef: @escaping @Sendable (AdvertisedRef) -> Void = { _ in }
    ) async throws(GitWireError) -> RefAdvertisement {
        var conversation = Conversation(client: self, url: url)
        var advertisement = try await conversation.advertisement(
            protocolVersion: protocolVersion,
            heads: heads,
            tags: tags,
            symref: symref,
            onRef: onRef
        )
        if advertisement.protocolVersion == 2 {
            try await conversation.listRefs(
                into: &advertisement,
                heads: heads,
                tags: tags,
                symref: symref,
                onRef: onRef
            )
        }
        return advertisement
    }
}

// MARK: - The conversation

extension HTTPGitClient {
    /// One `ls-remote`: its deadline, the bytes read so far, and where the repository answers.
    private struct Conversation {
        let git: HTTPGitClient
        let url: GitHTTPURL
        let address: String
        let end: ContinuousClock.Instant
        let timeout: Duration
        let deadline: Duration
        /// The repository's origin, as the client sends to it (its host in IDNA form): the only
        /// one the credential goes to.
        let origin: Origin?
        /// Where the repository is after the redirects of its `info/refs` request.
        var base: URL
        var received = 0
        /// The reader of the v2 capability advertisement, which goes on with `ls-refs`.
        var packets: AdvertisementReader
        /// Whether the repository's origin asked for credentials (401): from then on the
        /// credential goes with every request to it, as git sends it.
        var challenged = false
        /// The credential, once known: the client's, or what its source gave when asked.
        var credential: GitCredential?

        init(client: HTTPGitClient, url: GitHTTPURL) {
            git = client
            self.url = url
            address = url.description
            timeout = Self.bounded(client.timeout)
            deadline = Self.bounded(client.deadline)
            end = ContinuousClock.now.advanced(by: deadline)
            base = url.url
            packets = AdvertisementReader(address: url.description, limits: client.limits)
            origin = Origin(client.client, Endpoint<Data>(url: url.infoRefs))
            credential = client.credential
        }

        /// The answer to `info/refs`: v0's refs, v2's capabilities (protocol version 2, no refs
        /// yet), or a dumb repository's refs.
        mutating func advertisement(
            protocolVersion: Int,
            heads: Bool,
            tags: Bool,
            symref: Bool,
            onRef: @Sendable (AdvertisedRef) -> Void
        ) async throws(GitWireError) -> RefAdvertisement {
            var headers = HTTPFields()
            headers[.accept] = "*/*"
            headers[.cacheControl] = "no-cache"
            if protocolVersion == 2 { headers[.gitProtocol] = "version=2" }
            let response = try await open(Endpoint<Data>(url: url.infoRefs, headers: headers))
            // As git does: the repository is where `info/refs` answered, which must still be an
            // `info/refs` address.
            guard let answered = GitHTTPURL.base(redirectedTo: response.url) else {
                response.body.cancel()
                throw .malformed(
                    address,
                    reason: "it redirected to \(Redaction.redactingURL(response.url)), which is not a repository's "
                        + "info/refs address"
                )
            }
            base = answered
            var reader = try InfoRefsReader(
                contentType: response.head.headerFields[.contentType],
                address: address,
                limits: git.limits
            )
            try await read(response.body) { chunk throws(GitWireError) in
                for ref in try reader.read(chunk) { onRef(ref) }
                return !reader.isComplete
            }
            try reader.finish()
            guard reader.kind == .dumb else {
                packets = reader.packets
                return packets.advertisement
            }
            let advertisement = try reader.dumbAdvertisement(head: try await headFile())
            for ref in advertisement.refs { onRef(ref) }
            return advertisement
        }

        /// Protocol v2's `ls-refs`, its refs added to `advertisement`.
        mutating func listRefs(
            into advertisement: inout RefAdvertisement,
            heads: Bool,
            tags: Bool,
            symref: Bool,
            onRef: @Sendable (AdvertisedRef) -> Void
        ) async throws(GitWireError) {
            let request = try packets.lsRefsRequest(heads: heads, tags: tags, symref: symref)
            var headers = HTTPFields()
            headers[.accept] = Self.resultType
            headers[.gitProtocol] = "version=2"
            let endpoint = Endpoint<Data>(
                method: .post,
                url: GitHTTPURL.uploadPack(of: base),
                headers: headers,
                body: .data(Data(request), contentType: "application/x-git-upload-pack-request")
            )
            let response = try await open(endpoint)
            let contentType = response.head.headerFields[.contentType].map { $0.prefix { $0 != ";" }.trimmingSpaces }
            guard contentType?.lowercased() == Self.resultType else {
                response.body.cancel()
                throw .malformed(
                    address,
                    reason:
                        "it answered ls-refs with \(contentType.map { "'\($0.prefix(80))'" } ?? "no Content-Type"), "
                        + "not \(Self.resultType)"
                )
            }
            var decoder = PktLineDecoder()
            var packets = packets
            let address = address
            try await read(response.body) { chunk throws(GitWireError) in
                decoder.append(chunk)
                while packets.state != .finished,
                    let packet = try wrap(address, { () throws(PktLineError) in try decoder.next() })
                {
                    for ref in try packets.read(packet) { onRef(ref) }
                }
                return packets.state != .finished
            }
            guard packets.state == .finished else {
                throw .malformed(address, reason: "the ls-refs answer ended before the flush packet that ends it")
            }
            self.packets = packets
            advertisement = packets.advertisement
        }

        /// A dumb repository's `HEAD` file, or `nil` when it cannot be had (git then lists no
        /// `HEAD`): not found, refused, too long, or failed for any reason but the limits.
        private mutating func headFile() async throws(GitWireError) -> [UInt8]? {
            let response: StreamedResponse
            do {
                response = try await open(Endpoint<Data>(url: base.appendingPathComponent("HEAD")))
            } catch .limitExceeded(let address, let reason) {
                throw .limitExceeded(address, reason: reason)
            } catch {
                return nil
            }
            var bytes: [UInt8] = []
            var tooLong = false
            do {
                try await read(response.body) { chunk throws(GitWireError) in
                    guard bytes.count + chunk.count <= HTTPGitClient.longestHeadFile else {
                        tooLong = true
                        return false
                    }
                    bytes += chunk
                    return true
                }
            } catch .limitExceeded(let address, let reason) {
                throw .limitExceeded(address, reason: reason)
            } catch {
                return nil
            }
            return tooLong ? nil : bytes
        }

        // MARK: - Requests

        private static let resultType = "application/x-git-upload-pack-result"

        /// Sends `endpoint` with the time left. The credential goes with it when the endpoint is
        /// at the repository's origin and that origin has asked for credentials. A 401 from the
        /// origin to a request sent there without the credential (found now, or asked of the
        /// client's source) sends it once more with it.
        private mutating func open(_ endpoint: Endpoint<Data>) async throws(GitWireError) -> StreamedResponse {
            let toOrigin = origin != nil && Origin(git.client, endpoint) == origin
            let sendsCredential = challenged && toOrigin && credential != nil
            var request = endpoint
            if sendsCredential, let credential {
                request.headers[.authorization] = credential.authorization
            }
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { throw .timedOut(address, after: deadline) }
            do {
                return try await git.client.stream(request, timeout: left, idleTimeout: timeout)
            } catch .unauthorized(let failure) {
                // Asked by the repository's origin itself (not a host a redirect led to), of a
                // request addressed to it: the only case that gets the credential, and once.
                let askedByOrigin = Origin(failure.answeredURL) == origin
                if askedByOrigin, toOrigin, !challenged {
                    challenged = true
                    if credential == nil, let source = git.credentialSource { credential = await source(url) }
                    if credential != nil { return try await open(endpoint) }
                }
                throw .unauthorized(address, credentialsSent: askedByOrigin && sendsCredential)
            } catch {
                throw explain(error, credentialsSent: sendsCredential)
            }
        }

        /// Reads `body` piece by piece into `take` until it returns `false`, then to its end,
        /// counting the bytes against the limits as they arrive.
        ///
        /// The body is read to its end, as git reads it, so that its connection can carry the
        /// next request (v2's `ls-refs` after the capabilities): bytes after the answer's end
        /// are dropped, and past ``longestTrailer`` of them the transfer is stopped instead.
        private mutating func read(
            _ body: StreamedResponse.Body,
            _ take: (Data) throws(GitWireError) -> Bool
        ) async throws(GitWireError) {
            var complete = false
            do {
                var trailing = 0
                for try await chunk in body {
                    received += chunk.count
                    if complete {
                        // The answer is whole: what follows it cannot fail it.
                        trailing += chunk.count
                        if trailing > HTTPGitClient.longestTrailer || received > git.limits.maximumBytes {
                            body.cancel()
                            return
                        }
                        continue
                    }
                    try git.limits.check(bytes: received, address: address)
                    complete = !(try take(chunk))
                }
            } catch let error as GitWireError {
                body.cancel()
                throw error
            } catch {
                // Once the answer is whole, a silence or a break after it does not fail it.
                guard !complete else { return }
                guard let error = error as? RequestError else { throw .connectionLost(address) }
                throw explain(error, credentialsSent: false)
            }
        }

        /// The ``GitWireError`` that says what `error` means for a git conversation.
        private func explain(_ error: RequestError, credentialsSent: Bool) -> GitWireError {
            switch error {
            case .invalidURL(_, let reason):
                // The addresses sent are made from a checked one: this one came from a redirect.
                return .malformed(address, reason: "it redirected to an address that cannot be used: \(reason)")
            case .insecureConnection(let request, let reason):
                return .refused(address, host: request.host, reason: reason.refusal(of: request))
            case .transport(let failure):
                switch failure.kind {
                case .hostNotFound: return .hostNotFound(address)
                case .connectionRefused: return .connectionRefused(address)
                case .connectionLost: return .connectionLost(address)
                case .timedOut: return .timedOut(address, after: ContinuousClock.now < end ? timeout : deadline)
                default: return .transport(address, reason: error.message)
                }
            case .unauthorized:
                return .unauthorized(address, credentialsSent: credentialsSent)
            case .clientError(let failure) where failure.status == 403:
                return .forbidden(address, credentialsSent: credentialsSent && Origin(failure.answeredURL) == origin)
            case .clientError(let failure) where failure.status == 404 || failure.status == 410:
                return .notFound(address)
            case .clientError(let failure), .serverError(let failure), .unexpectedStatus(let failure):
                return .unexpectedStatus(address, status: failure.status)
            case .cancelled:
                return .connectionLost(address)
            default:
                return .transport(address, reason: error.message)
            }
        }

        /// `duration` between a millisecond and a year.
        private static func bounded(_ duration: Duration) -> Duration {
            max(.milliseconds(1), min(duration, .seconds(365 * 24 * 3600)))
        }
    }
}

/// A scheme, host and port, read from a URL as the client sends it.
private struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int

    /// The origin of `url` (a request's URL as the client prepared it).
    init?(_ url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.encodedHost?.lowercased()
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// The origin `client` sends `endpoint` to, its host in the form it goes on the wire.
    init?(_ client: HTTPClient, _ endpoint: Endpoint<Data>) {
        guard let prepared = try? client.prepare(endpoint) else { return nil }
        self.init(prepared.summary.url)
    }
}

extension HTTPField.Name {
    /// `Git-Protocol`: the protocol version a client asks for over HTTP.
    static let gitProtocol = HTTPField.Name("Git-Protocol")!  // a valid token: cannot fail
}
