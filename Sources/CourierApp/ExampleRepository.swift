import CourierServerKit
public import Foundation
import GitWire
import HTTPTypes
import Hummingbird
public import Logging
import NIOCore

/// A git repository's refs served over git's smart HTTP protocol on a free loopback port, for
/// the Refs tab's example: the tab lists it over HTTP as it lists any repository, with no
/// network. The refs are `Examples/courier-example.refs` (what `git ls-remote --symref` printed
/// for a small repository); `git ls-remote` can list them too.
public enum ExampleRepository {
    /// The repository's path on its server.
    static let path = "/courier-example.git"

    /// Runs `body` with the example repository's address, which stops answering when `body`
    /// returns.
    ///
    /// - Throws: What `body` throws, ``AppServerError/missingResource(_:)`` when the refs cannot
    ///   be read, or why the server could not start.
    public static func withService<Result: Sendable>(
        logger: Logger = Logger(label: "courier.app.git"),
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        let answer = try advertisement()
        let router = Router()
        router.get("\(path)/info/refs") { request, _ in
            guard request.uri.queryParameters["service"] == "git-upload-pack" else {
                return AppResponse.problem(.forbidden, "This example answers git-upload-pack's refs only.")
            }
            var headers = HTTPFields()
            headers[.contentType] = InfoRefsReader.advertisementType
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
        }
        router.post("\(path)/git-upload-pack") { _, _ in
            AppResponse.problem(.forbidden, "This example lists its refs only: it holds no objects to fetch.")
        }
        let responder = router.buildResponder()
        let (addresses, announce) = AsyncStream.makeStream(of: URL.self)
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                defer { announce.finish() }
                try await ConnectionLimits.default.serve(
                    responder,
                    host: "127.0.0.1",
                    port: 0,
                    logger: logger,
                    handlingSignals: false
                ) { url in announce.yield(url) }
                return nil
            }
            var waiting = addresses.makeAsyncIterator()
            guard let url = await waiting.next() else {
                while let _ = try await group.next() {}
                throw AppServerError.cannotListen(address: "127.0.0.1", reason: "the example repository did not start")
            }
            defer { group.cancelAll() }
            return try await body(url.appendingPathComponent(String(path.dropFirst())))
        }
    }

    /// The protocol v0 advertisement of the example's refs.
    static func advertisement() throws(AppServerError) -> [UInt8] {
        let name = "Examples/courier-example.refs"
        guard let data = EmbeddedResources.bytes(name) else { throw .missingResource(name) }
        do {
            let refs = try RefAdvertisement(lsRemoteListing: String(decoding: data, as: UTF8.self), address: name)
            return try refs.smartHTTPAdvertisement(agent: "courier")
        } catch {
            throw .missingResource("\(name) (\(error))")
        }
    }
}
