import Foundation
import HTTPTypes
import Hummingbird
import LibraryKit
import LibrarySearch
import Logging
import NIOCore

/// An error answer in problem-details JSON (RFC 9457).
struct Problem: HTTPResponseError {
    var details: ProblemDetails
    /// Header fields the answer carries besides the content type (`Allow` for a 405).
    var headers: HTTPFields = [:]

    var status: HTTPResponse.Status { HTTPResponse.Status(code: details.status) }

    init(_ status: HTTPResponse.Status, detail: String, errors: [ProblemDetails.InvalidParameter]? = nil) {
        details = ProblemDetails(title: status.reasonPhrase, status: status.code, detail: detail, errors: errors)
    }

    /// A 400 naming the parameters that are wrong and what each must be.
    static func badParameters(_ errors: [ProblemDetails.InvalidParameter]) -> Problem {
        let detail = errors.map { "\($0.parameter) \($0.detail)" }.joined(separator: "; ") + "."
        return Problem(.badRequest, detail: detail, errors: errors)
    }

    /// A 503 while the store's data cannot be reached: the client may retry in a second.
    static func unavailable(_ error: LibraryStoreError) -> Problem {
        var problem = Problem(
            .serviceUnavailable,
            detail: "The library's database cannot be reached; this replica reconnects by itself. Try again shortly."
        )
        problem.headers[.retryAfter] = "1"
        return problem
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(details)
        var headers = headers
        headers[.contentType] = ProblemDetails.mediaType
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Turns every error a route throws into problem-details JSON: a 404 on a path that exists
/// for other methods becomes a 405 with `Allow`; Hummingbird's own errors keep their status;
/// anything unknown is a 500 whose detail hides internals.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The paths the service answers, all with GET and HEAD.
    var paths: Set<String>

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            throw problem
        } catch let error as HTTPError {
            if error.status == .notFound, paths.contains(request.uri.path) {
                var problem = Problem(
                    .methodNotAllowed,
                    detail: "\(request.method) is not allowed on \(request.uri.path): the service only reads, with GET."
                )
                problem.headers[.allow] = "GET, HEAD"
                throw problem
            }
            throw Problem(error.status, detail: detail(for: error, request: request))
        } catch let error as any HTTPResponseError {
            throw Problem(error.status, detail: error.status.reasonPhrase)
        } catch {
            context.logger.error("\(request.method) \(request.uri) failed: \(error)")
            throw Problem(
                .internalServerError,
                detail: "The service failed to answer: try again; if it persists, see its log."
            )
        }
    }

    private func detail(for error: HTTPError, request: Request) -> String {
        guard error.status == .notFound else { return error.body ?? error.status.reasonPhrase }
        let known = paths.sorted().joined(separator: ", ")
        return "Nothing at \(request.uri.path): the service answers \(known)."
    }
}
