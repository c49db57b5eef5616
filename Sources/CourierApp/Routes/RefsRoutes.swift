import Courier
import Foundation
import GitWire
import Hummingbird
import NIOCore

/// The Refs tab: `GET /api/refs?url=https://…` (or `git://…`, or `?example`) streams the
/// repository's refs as JSON Lines as they arrive, then HEAD's symbolic ref — or the error
/// that ended it.
///
/// Cleartext (`http://`, and `git://`, which has no encryption) is allowed only where the
/// app's security policy allows cleartext HTTP: loopback, and the hosts it was told to allow.
struct RefsRoutes: Sendable {
    let git: AsyncGitClient
    let http: HTTPGitClient
    let policy: TransportSecurityPolicy
    /// The example repository's address, if the app serves one.
    let example: URL?

    /// Lists a repository's refs, handing each to a function as it arrives.
    private typealias Listing =
        @Sendable (@escaping @Sendable (AdvertisedRef) -> Void) async throws(GitWireError) ->
        RefAdvertisement

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/refs") { request, _ in refs(request) }
    }

    private func refs(_ request: Request) -> Response {
        let listing: Listing
        switch remote(request) {
        case .failure(let problem):
            return problem.response
        case .success(.daemon(let url)):
            guard policy.allows(scheme: "http", host: url.host) else {
                return AppResponse.problem(
                    .forbidden,
                    "git:// is not encrypted, and \(url.host) is not among the hosts allowed over cleartext."
                )
            }
            let git = git
            listing = { onRef async throws(GitWireError) in try await git.lsRemote(url, symref: true, onRef: onRef) }
        case .success(.http(let url)):
            let host = url.url.host ?? ""
            guard policy.allows(scheme: url.url.scheme ?? "https", host: host) else {
                return AppResponse.problem(
                    .forbidden,
                    "http:// is not encrypted, and \(host) is not among the hosts allowed over cleartext: use https://."
                )
            }
            let http = http
            listing = { onRef async throws(GitWireError) in try await http.lsRemote(url, symref: true, onRef: onRef) }
        }
        let limits = http.limits
        return Response(
            status: .ok,
            headers: AppResponse.closingStreamHeaders,
            body: ResponseBody { writer in
                // As many as the client's limits let the server send: the reader stops the
                // conversation before more arrive.
                let (refs, sink) = AsyncStream.makeStream(
                    of: AdvertisedRef.self,
                    bufferingPolicy: .bufferingOldest(max(1, limits.maximumRefs))
                )
                do {
                    try await request.untilClientLeaves {
                        try await withThrowingTaskGroup(of: RefAdvertisement.self) { group in
                            group.addTask {
                                defer { sink.finish() }
                                return try await listing { sink.yield($0) }
                            }
                            for await ref in refs {
                                try await writer.write(AppResponse.line(Line(ref: RefJSON(ref))))
                            }
                            guard let advertisement = try await group.next() else { return }
                            let head = advertisement.symrefs.first { $0.name == "HEAD" }?.target
                            try await writer.write(AppResponse.line(Line(head: head, done: true)))
                        }
                    }
                } catch let error as GitWireError {
                    try await writer.write(AppResponse.line(Line(error: error.description)))
                } catch is CancellationError {
                    return
                }
                try await writer.finish(nil)
            }
        )
    }

    /// The repository the request names, or the problem to answer.
    private func remote(_ request: Request) -> Swift.Result<GitRemote, ProblemResponse> {
        if request.parameter("example") != nil {
            guard let example, let url = try? GitHTTPURL(example.absoluteString) else {
                return .failure(ProblemResponse(AppResponse.problem(.notFound, "This app has no example repository.")))
            }
            return .success(.http(url))
        }
        do {
            return .success(try GitRemote(request.parameter("url") ?? ""))
        } catch {
            return .failure(ProblemResponse(AppResponse.problem(.badRequest, error.description)))
        }
    }

    /// A problem answer, as an error for `Result`.
    private struct ProblemResponse: Error {
        let response: Response
        init(_ response: Response) { self.response = response }
    }

    private struct Line: Encodable {
        var ref: RefJSON?
        var head: String?
        var done: Bool?
        var error: String?
    }

    private struct RefJSON: Encodable {
        var objectID: String
        var name: String

        init(_ ref: AdvertisedRef) {
            objectID = ref.objectID
            name = ref.name
        }

        enum CodingKeys: String, CodingKey {
            case name
            case objectID = "object_id"
        }
    }
}
