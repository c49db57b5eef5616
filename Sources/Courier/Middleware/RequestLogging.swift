import Foundation
import HTTPTypes
public import Logging

/// Logs each request and its outcome through swift-log, with secrets redacted.
///
/// ```swift
/// var logger = Logger(label: "courier")
/// logger.logLevel = .debug
/// let client = HTTPClient(transport: transport, configuration: .init(middleware: [RequestLogging(logger: logger)]))
/// ```
///
/// Lines are logged at ``level`` (default `.debug`, so normal operation stays quiet); header
/// fields are logged at `.trace`. `Authorization`, cookies, API-key headers and secret query
/// items (`api_key`, `token`…) appear as `REDACTED`.
public struct RequestLogging: Middleware {
    private let logger: Logger
    private let level: Logger.Level

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - logger: Where lines go.
    ///   - level: The level of the request and response lines.
    public init(logger: Logger, level: Logger.Level = .debug) {
        self.logger = logger
        self.level = level
    }

    /// Handles one request; see Middleware/send(_:next:).
    public func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        guard logger.logLevel <= level else { return try await next(request) }
        var logger = logger
        logger[metadataKey: "request-id"] = "\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let summary = request.summary
        logger.log(level: level, "→ \(summary)")
        if logger.logLevel <= .trace {
            for field in request.head.headerFields {
                logger.trace("→ \(field.name): \(Redaction.isSecret(field.name) ? Redaction.placeholder : field.value)")
            }
        }
        let start = ContinuousClock.now
        do {
            let response = try await next(request)
            let elapsed = ContinuousClock.now - start
            logger.log(
                level: level,
                "← \(response.head.status) \(summary) (\(Self.milliseconds(elapsed)) ms, \(response.body.count) bytes)"
            )
            if logger.logLevel <= .trace {
                for field in response.head.headerFields {
                    logger.trace(
                        "← \(field.name): \(Redaction.isSecret(field.name) ? Redaction.placeholder : field.value)"
                    )
                }
            }
            return response
        } catch {
            let elapsed = ContinuousClock.now - start
            logger.log(level: level, "✗ \(summary) (\(Self.milliseconds(elapsed)) ms): \(error.shortDescription)")
            throw error
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
