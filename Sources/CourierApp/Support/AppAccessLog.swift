import Hummingbird
import Logging

/// One `info` line per request: method, path (without the query, which may hold a search
/// term or a feed's address), status and time.
struct AppAccessLog<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        logger.info("\(request.method) \(request.uri.path) \(response.status.code) \(elapsed)")
        return response
    }
}
