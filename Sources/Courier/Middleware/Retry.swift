import Foundation
import HTTPTypes

/// Sends an idempotent request again when it fails in a way that may pass: a transient
/// connection failure, or 408, 429, 500, 502, 503, 504.
///
/// Waits with exponential backoff and jitter between attempts, or as long as `Retry-After`
/// asks when that is within ``maxDelay`` (a longer wait returns the response as it is). The
/// client's timeout covers every attempt and wait: no attempt starts that could not begin
/// before the request's ``PreparedRequest/deadline``, and the last outcome is returned instead.
/// Non-idempotent methods (POST, PATCH) are sent once, unless the request carries an
/// `Idempotency-Key` header.
///
/// ```swift
/// let client = HTTPClient(transport: transport, configuration: .init(middleware: [Retry(maxAttempts: 4)]))
/// ```
public struct Retry: Middleware {
    /// The most attempts, the first included. (A transport may send one attempt twice when its
    /// connection closed before any of the response; see ``PreparedRequest/isRepeatable``.)
    public var maxAttempts: Int
    /// The delay before the first retry; each further retry doubles it.
    public var baseDelay: Duration
    /// The longest wait between attempts, and the longest `Retry-After` honoured.
    public var maxDelay: Duration
    /// Statuses worth another attempt.
    public var retryableStatuses: Set<Int>
    private let clock: any Clock<Duration>

    /// Creates a retry policy.
    ///
    /// - Parameters:
    ///   - maxAttempts: The most times a request is sent, at least 1.
    ///   - baseDelay: The delay before the first retry.
    ///   - maxDelay: The longest wait between attempts.
    ///   - retryableStatuses: The statuses worth another attempt.
    ///   - clock: The clock to sleep on; tests pass one they control.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        precondition(maxAttempts >= 1, "Retry needs at least one attempt")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retryableStatuses = retryableStatuses
        self.clock = clock
    }

    /// Handles one request; see ``Middleware/send(_:next:)``.
    public func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        // A body read from a sequence cannot be sent a second time, and an offline request
        // (answered by a cache or not at all) would get the same answer again.
        guard request.isRepeatable, !Self.isOffline(request) else {
            return try await next(request)
        }
        var attempt = 1
        while true {
            let delay: Duration
            let lastOutcome: Result<RawResponse, RequestError>
            do {
                let response = try await next(request)
                guard attempt < maxAttempts, retryableStatuses.contains(response.status) else { return response }
                let asked = response.head.headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: Date()) }
                if let asked, asked > maxDelay { return response }
                delay = asked ?? backoff(after: attempt)
                lastOutcome = .success(response)
            } catch {
                guard attempt < maxAttempts, Self.isTransient(error) else { throw error }
                delay = backoff(after: attempt)
                lastOutcome = .failure(error)
            }
            // No attempt after the request's time is up: the deadline covers every attempt.
            if let deadline = request.deadline, delay >= deadline - .now {
                return try lastOutcome.get()
            }
            do {
                try await clock.sleep(for: delay)
            } catch {
                throw .cancelled
            }
            attempt += 1
        }
    }

    // MARK: - Rules

    /// Whether `request` stays off the network: ``CachePolicy/returnCacheDontLoad`` or
    /// `Cache-Control: only-if-cached`.
    static func isOffline(_ request: PreparedRequest) -> Bool {
        request.cachePolicy == .returnCacheDontLoad
            || CacheControl(request.head.headerFields[values: .cacheControl]).onlyIfCached
    }

    /// Whether a failure may pass on its own.
    static func isTransient(_ error: RequestError) -> Bool {
        guard case .transport(let failure) = error else { return false }
        return [.connectionRefused, .connectionLost, .timedOut].contains(failure.kind)
    }

    /// Exponential backoff with "equal jitter": half the delay fixed, half random, so retries
    /// from many clients spread out but never come back at once.
    func backoff(after attempt: Int) -> Duration {
        let factor = 1 << min(max(attempt - 1, 0), 30)
        // Compared before multiplying, so that no configured delay can overflow.
        let capped = baseDelay > maxDelay / factor ? maxDelay : baseDelay * factor
        return capped / 2 + capped / 2 * Double.random(in: 0...1)
    }
}
