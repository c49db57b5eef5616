import Courier
import GitWire
import Hummingbird
import NIOCore

/// The Refs tab: `GET /api/refs?url=git://…` streams the repository's refs as JSON Lines as
/// they arrive, then HEAD's symbolic ref — or the error that ended it.
///
/// `git://` is cleartext, so it is allowed only where the app's security policy allows
/// cleartext HTTP: loopback, and the hosts it was told to allow.
struct RefsRoutes: Sendable {
    let git: AsyncGitClient
    let policy: TransportSecurityPolicy

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/refs") { request, _ in refs(request) }
    }

    private func refs(_ request: Request) -> Response {
        let url: GitURL
        do {
            url = try GitURL(request.parameter("url") ?? "")
        } catch {
            return AppResponse.problem(.badRequest, error.description)
        }
        guard policy.allows(scheme: "http", host: url.host) else {
            return AppResponse.problem(
                .forbidden,
                "git:// is not encrypted, and \(url.host) is not among the hosts allowed over cleartext."
            )
        }
        let git = git
        return Response(
            status: .ok,
            headers: AppResponse.closingStreamHeaders,
            body: ResponseBody { writer in
                // As many as the client's limits let the server send: the reader stops the
                // conversation before more arrive.
                let (refs, sink) = AsyncStream.makeStream(
                    of: AdvertisedRef.self,
                    bufferingPolicy: .bufferingOldest(max(1, git.limits.maximumRefs))
                )
                do {
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        try await withThrowingTaskGroup(of: RefAdvertisement.self) { group in
                            group.addTask {
                                defer { sink.finish() }
                                return try await git.lsRemote(url, symref: true) { sink.yield($0) }
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
