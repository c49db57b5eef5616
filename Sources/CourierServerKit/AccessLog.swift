import Courier
public import Hummingbird
public import Logging

/// Logs each request once it is answered: method, target, status, body size when known and
/// time taken, with the request id Hummingbird attaches to the request's logger.
///
/// ```swift
/// router.middlewares.add(AccessLog(target: .pathOnly))
/// ```
public struct AccessLog<Context: RequestContext>: RouterMiddleware {
    /// How much of the request target a line shows.
    public enum Target: Sendable, Hashable {
        /// The path and the query, with the values of parameters that carry secrets
        /// (`api_key`, `token`, …) redacted.
        case full
        /// The path only: for a server whose queries hold what a person searched for, or an
        /// address they follow.
        case pathOnly
    }

    /// The level lines are logged at.
    public var level: Logger.Level
    /// How much of the target is logged.
    public var target: Target

    /// An access log at `level` (`info`, by default) showing `target`.
    public init(level: Logger.Level = .info, target: Target = .full) {
        self.level = level
        self.target = target
    }

    /// Logs the answer `next` gives, or the error it throws.
    public func handle(
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
        let shown = target == .full ? Redaction.redactingURL(request.uri.description) : request.uri.path
        context.logger.log(level: level, "\(request.method) \(shown) \(status)\(size) \(microseconds) µs")
    }
}
