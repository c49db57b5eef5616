import Hummingbird
import Logging

/// Logs each request once it is answered: method, target, status, body size and time taken,
/// with the request id Hummingbird attaches.
struct AccessLog<Context: RequestContext>: RouterMiddleware {
    var level: Logger.Level = .info

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(
                request,
                status: response.status.code,
                bytes: response.body.contentLength,
                since: start,
                context: context
            )
            return response
        } catch let error as any HTTPResponseError {
            log(request, status: error.status.code, bytes: nil, since: start, context: context)
            throw error
        }
    }

    private func log(
        _ request: Request,
        status: Int,
        bytes: Int?,
        since start: ContinuousClock.Instant,
        context: Context
    ) {
        guard context.logger.logLevel <= level else { return }
        let elapsed = ContinuousClock.now - start
        let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        let size = bytes.map { " \($0) bytes" } ?? ""
        context.logger.log(level: level, "\(request.method) \(request.uri) \(status)\(size) \(microseconds) µs")
    }
}
