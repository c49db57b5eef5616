public import Hummingbird
import Logging

/// Turns every error a route throws into an ``HTTPProblem``: a 404 on a path that exists for
/// other methods becomes a 405 with `Allow`; Hummingbird's own errors keep their status; any
/// other error is logged and answered with a 500 whose detail hides internals.
public struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The paths the server answers, for a 404's detail and for telling a 405 from a 404; empty
    /// for a server whose paths take different methods (a 404 then names only the path).
    public var paths: Set<String>
    /// The methods every one of ``paths`` takes, as `Allow` lists them.
    public var allowedMethods: String

    /// A middleware for a server whose `paths` all take `allowedMethods`.
    public init(paths: Set<String>, allowedMethods: String = "GET, HEAD") {
        self.paths = paths
        self.allowedMethods = allowedMethods
    }

    /// Answers errors from `next` as problems.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as HTTPProblem {
            throw problem
        } catch let error as HTTPError {
            if error.status == .notFound, paths.contains(request.uri.path) {
                throw HTTPProblem(
                    .methodNotAllowed,
                    detail: "\(request.method) is not allowed on \(request.uri.path): it takes \(allowedMethods).",
                    headers: [.allow: allowedMethods]
                )
            }
            throw HTTPProblem(error.status, detail: detail(for: error, request: request))
        } catch let error as any HTTPResponseError {
            throw HTTPProblem(error.status, detail: error.status.reasonPhrase)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            throw HTTPProblem(
                .internalServerError,
                detail: "The server failed to answer: try again; if it persists, see its log."
            )
        }
    }

    private func detail(for error: HTTPError, request: Request) -> String {
        guard error.status == .notFound else { return error.body ?? error.status.reasonPhrase }
        guard !paths.isEmpty else { return "Nothing at \(request.uri.path)." }
        let known = paths.sorted().joined(separator: ", ")
        return "Nothing at \(request.uri.path): the server answers \(known)."
    }
}
