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
/// Lines are logged at the level given to ``init(logger:level:)`` (default `.debug`, so normal operation stays quiet); header
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

    /// Handles one request; see ``Middleware/send(_:next:)``.
    public func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        guard logger.logLevel <= level else { return try await next(request) }
        var logger = logger
        logger[metadataKey: "request-id"] = "\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let summary = request.summary
        logger.log(level: level, "→ \(summary)")
        Self.trace(request.head.headerFields, marker: "→", to: logger)
        let start = ContinuousClock.now
        do {
            let response = try await next(request)
            let elapsed = ContinuousClock.now - start
            let cache = response.cacheOutcome.map { ", cache \($0.rawValue)" } ?? ""
            let version = response.httpVersion.map { "\($0), " } ?? ""
            logger.log(
                level: level,
                "← \(response.head.status) \(summary) (\(version)\(elapsed.milliseconds) ms, \(Self.size(of: response))\(cache))"
            )
            Self.trace(response.head.headerFields, marker: "←", to: logger)
            return response
        } catch {
            let elapsed = ContinuousClock.now - start
            logger.log(level: level, "✗ \(summary) (\(elapsed.milliseconds) ms): \(error.shortDescription)")
            throw error
        }
    }

    /// Logs each header field at trace level, secrets redacted.
    private static func trace(_ fields: HTTPFields, marker: String, to logger: Logger) {
        guard logger.logLevel <= .trace else { return }
        for field in fields {
            logger.trace("\(marker) \(field.name): \(Redaction.displayedValue(of: field))")
        }
    }

    /// "1234 bytes", or "streamed" for a body still arriving (``HTTPClient/stream(_:timeout:idleTimeout:)``).
    private static func size(of response: RawResponse) -> String {
        response.stream == nil ? "\(response.body.count) bytes" : "streamed"
    }
}
