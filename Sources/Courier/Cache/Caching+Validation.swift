import Foundation
import HTTPTypes

extension Caching {
    // MARK: - Validation

    /// Asks the origin whether `stored[selected]` is still current. A 304 answers for the stored
    /// response whose validators were sent: it is freshened with the 304's fields (RFC 9111
    /// §4.3.4) — with every other stored response the 304's validator applies to — and returned
    /// as a 200, or cut to the range asked for. Any other answer that may be stored (not a server
    /// error, not a 416) replaces them. Only a caller whose own request was conditional receives the 304 itself.
    func validate(
        _ selected: Int,
        request: PreparedRequest,
        key: String,
        stored: [CachedResponse],
        next: Middleware.Next
    ) async throws(RequestError) -> RawResponse {
        let hasOwnConditions =
            request.head.headerFields[.ifNoneMatch] != nil || request.head.headerFields[.ifModifiedSince] != nil
        var conditional = request
        if !hasOwnConditions {
            conditional.head.headerFields.append(
                contentsOf: CacheValidation.conditionalFields(for: stored[selected].head)
            )
        }
        let sentAt = now()
        let response: RawResponse
        do {
            response = try await next(conditional)
        } catch {
            if let stale = staleAnswer(stored[selected], for: request, afterFailure: error) { return stale }
            throw error
        }
        let receivedAt = now()
        if (500..<600).contains(response.status) {
            // A server error does not replace what is stored (RFC 9111 §4.3.3): it is passed
            // on, or the stale response answers where stale-if-error allows.
            if let stale = staleAnswer(stored[selected], for: request, afterStatus: response.status) { return stale }
            var failed = response
            failed.cacheOutcome = .miss
            return failed
        }
        // A 304 that came through a redirect speaks for another URL than the one stored.
        if response.status == 304, !hasOwnConditions, response.url != request.url {
            return try await fetch(request, key: key, next: next)
        }
        guard response.status == 304, !hasOwnConditions else {
            return await remember(response, for: request, key: key, sentAt: sentAt, receivedAt: receivedAt)
        }
        // A 304 without a validator of its own is about the response the cache asked about.
        let asked = stored[selected]
        let carriesValidator =
            response.head.headerFields[.eTag] != nil || response.head.headerFields[.lastModified] != nil
        guard !carriesValidator || CacheValidation.notModified(response.head, applies: asked.head) else {
            // The 304 names another representation than the one asked about: ask once more,
            // without conditions.
            return try await fetch(request, key: key, next: next)
        }
        func freshened(_ entry: CachedResponse) -> CachedResponse {
            var entry = entry
            entry.head = CacheValidation.updating(entry.head, with: response.head)
            entry.requestTime = sentAt
            entry.responseTime = receivedAt
            return entry
        }
        if !CacheControl(response.head.headerFields[values: .cacheControl]).noStore {
            // What is stored now, which another request may have changed meanwhile: the
            // response asked about, if still there, and every other one the 304 applies to.
            var current = await cache.variants(forKey: key)
            var changed = false
            for index in current.indices
            where current[index] == asked || CacheValidation.notModified(response.head, applies: current[index].head) {
                current[index] = freshened(current[index])
                changed = true
            }
            if changed { await cache.store(current, forKey: key) }
        }
        let answered = freshened(asked)
        guard answered.rangeAnswer(for: request.head) != .notStored else {
            return try await fetch(request, key: key, next: next)
        }
        return answer(answered, outcome: .revalidated, to: request)
    }

    // MARK: - Serving stale on errors

    /// The stale stored response in place of a failed request, where that is allowed (RFC 9111
    /// §4.2.4): the origin could not be reached, and nothing in the stored response
    /// (`must-revalidate`, `proxy-revalidate`, `no-cache`, `s-maxage`) or the request
    /// (`no-cache`) forbids it.
    private func staleAnswer(
        _ stored: CachedResponse,
        for request: PreparedRequest,
        afterFailure error: RequestError
    ) -> RawResponse? {
        switch error.transportFailure?.kind {
        case .connectionRefused?, .connectionLost?, .timedOut?, .hostNotFound?, .proxy?:
            return staleAllowed(stored, for: request, window: nil) ? staleAnswer(stored, request) : nil
        default:
            return nil
        }
    }

    /// The stale stored response in place of a 5xx answer, when `stale-if-error` (RFC 5861) in
    /// the stored response or the request allows its staleness.
    private func staleAnswer(
        _ stored: CachedResponse,
        for request: PreparedRequest,
        afterStatus status: Int
    ) -> RawResponse? {
        let window =
            CacheControl(request.head.headerFields[values: .cacheControl]).staleIfError
            ?? CacheControl(stored.head.headerFields[values: .cacheControl]).staleIfError
        guard let window, staleAllowed(stored, for: request, window: window) else { return nil }
        return staleAnswer(stored, request)
    }

    private func staleAllowed(_ stored: CachedResponse, for request: PreparedRequest, window: Int?) -> Bool {
        let control = CacheControl(stored.head.headerFields[values: .cacheControl])
        if control.mustRevalidate || control.proxyRevalidate || control.noCache || control.sharedMaxAge != nil {
            return false
        }
        if CacheControl(request.head.headerFields[values: .cacheControl]).hasNoCache { return false }
        guard let window else { return true }
        return stored.freshness(now: now()).staleness <= Double(window)
    }

    private func staleAnswer(_ stored: CachedResponse, _ request: PreparedRequest) -> RawResponse {
        answer(stored, outcome: .stale, to: request)
    }

    // MARK: - Revalidating in the background

    /// Starts a revalidation of the stored response for `request` that the cache owns (RFC
    /// 5861 §3), unless one is under way for the URL: a GET for the stored response as a whole,
    /// without the caller's own conditions or range, so that a new response replaces it.
    ///
    /// - Returns: `false` when the cache is shut down: the caller then validates first.
    func revalidateInBackground(_ request: PreparedRequest, key: String, next: @escaping Middleware.Next) -> Bool {
        var background = request
        background.head.method = .get
        for name: HTTPField.Name in [.ifNoneMatch, .ifModifiedSince, .ifRange, .ifMatch, .ifUnmodifiedSince, .range] {
            background.head.headerFields[name] = nil
        }
        background.cachePolicy = .useProtocolPolicy
        return cache.revalidations.start(key: key) { [background] in
            let stored = await cache.variants(forKey: key)
            // Parts are never revalidated in the background (another request may have stored
            // some since this one was answered): only a complete response, as a whole.
            guard let index = selectedIndex(in: stored, for: background), stored[index].partial == nil else { return }
            // The answer goes nowhere: what counts is what the cache stores. A failure leaves
            // the stale response as it was.
            _ = try? await validate(index, request: background, key: key, stored: stored, next: next)
        }
    }
}
