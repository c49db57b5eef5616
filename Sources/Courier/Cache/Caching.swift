import Foundation
import HTTPTypes

/// Middleware that answers from an ``HTTPCache`` where HTTP's caching rules (RFC 9111, as a
/// private cache) allow, revalidates stale responses with their validators, stores what may be
/// stored, and forgets a URL after a successful unsafe request to it.
///
/// ```swift
/// let cache = try HTTPCache(directory: cacheDirectory)
/// let client = HTTPClient(transport: transport, configuration: .init(middleware: [Caching(cache)]))
/// let page = try await client.response(for: endpoint)
/// ```
///
/// Each ``RawResponse`` says where it came from in ``RawResponse/cacheOutcome``; a request's
/// ``PreparedRequest/cachePolicy`` (set with ``Endpoint/usingCachePolicy(_:)``) can reload,
/// prefer the cache, or stay offline. Put it after ``Retry`` in the middleware list so that
/// only real network attempts are retried.
public struct Caching: Middleware {
    /// The cache it reads and fills.
    public let cache: HTTPCache
    private let now: @Sendable () -> Date

    /// Caches through `cache`.
    public init(_ cache: HTTPCache) {
        self.init(cache, now: { Date() })
    }

    /// Caches through `cache`, reading the time from `now` (for tests).
    init(_ cache: HTTPCache, now: @escaping @Sendable () -> Date) {
        self.cache = cache
        self.now = now
    }

    // MARK: - Middleware

    /// Answers from the cache, revalidates, or sends and stores, as the rules allow.
    public func send(_ request: PreparedRequest, next: Next) async throws(RequestError) -> RawResponse {
        let method = request.head.method
        guard method == .get || method == .head else {
            let response = try await next(request)
            if !Self.safeMethods.contains(method), (200..<400).contains(response.status) {
                await invalidate(after: request, response: response)
            }
            return response
        }
        let requestControl = CacheControl(request.head.headerFields[values: .cacheControl])
        if requestControl.noStore {
            // Neither answered from the cache nor written to it (RFC 9111 §5.2.1.5).
            var response = try await next(request)
            response.cacheOutcome = .miss
            return response
        }
        let key = Self.key(for: request)
        let stored = await cache.variants(forKey: key)
        let selectedIndex = stored.indices.filter { stored[$0].matches(request.head, secrets: cache.secrets) }
            .max { stored[$0].responseTime < stored[$1].responseTime }
        let selected = selectedIndex.map { stored[$0] }

        switch (requestControl.onlyIfCached ? .returnCacheDontLoad : request.cachePolicy, selected) {
        case (.reloadIgnoringCache, _):
            return try await fetch(request, key: key, stored: stored, next: next)
        case (.returnCacheElseLoad, let selected?), (.returnCacheDontLoad, let selected?):
            let outcome: CacheOutcome = selected.freshness(now: now()).isFresh ? .hit : .stale
            return answer(selected, outcome: outcome, to: request)
        case (.returnCacheDontLoad, nil):
            var response = RawResponse(head: HTTPResponse(status: .gatewayTimeout), url: request.url)
            response.cacheOutcome = .miss
            return response
        case (_, nil):
            return try await fetch(request, key: key, stored: stored, next: next)
        case (_, let selected?):
            if let outcome = usableWithoutValidation(selected, requestControl: requestControl, request: request) {
                return answer(selected, outcome: outcome, to: request)
            }
            // `selected` comes from `selectedIndex`, so both are there.
            let index = selectedIndex ?? stored.startIndex
            return try await validate(index, request: request, key: key, stored: stored, next: next)
        }
    }

    // MARK: - Using stored responses

    /// `.hit` or `.stale` when `stored` may answer without asking the origin (RFC 9111 §4.2,
    /// §5.2.1), `nil` when it must be validated first.
    private func usableWithoutValidation(
        _ stored: CachedResponse,
        requestControl: CacheControl,
        request: PreparedRequest
    ) -> CacheOutcome? {
        let responseControl = CacheControl(stored.head.headerFields[values: .cacheControl])
        let pragmaNoCache =
            request.head.headerFields[.cacheControl] == nil
            && request.head.headerFields[.pragma]?.lowercased().contains("no-cache") == true
        if responseControl.noCache || requestControl.noCache || pragmaNoCache { return nil }
        let freshness = stored.freshness(now: now())
        if let maxAge = requestControl.maxAge, freshness.currentAge > Double(maxAge) { return nil }
        if let minFresh = requestControl.minFresh, freshness.lifetime - freshness.currentAge < Double(minFresh) {
            return nil
        }
        if freshness.isFresh { return .hit }
        if !responseControl.mustRevalidate, let maxStale = requestControl.maxStale,
            freshness.staleness <= Double(maxStale)
        {
            return .stale
        }
        return nil
    }

    /// The stored response as the answer to `request`: without a body for HEAD, and as a 304
    /// when the caller's own conditions hold for it (RFC 9111 §4.3.2).
    private func answer(_ stored: CachedResponse, outcome: CacheOutcome, to request: PreparedRequest) -> RawResponse {
        var response = stored.response(now: now(), outcome: outcome)
        if CacheValidation.conditionsHold(in: request.head, for: stored.head) {
            response.head.status = .notModified
            response.head.headerFields[.contentLength] = nil
            response.body = Data()
        } else if request.head.method == .head {
            response.body = Data()
        }
        return response
    }

    /// Asks the origin whether `stored[selected]` is still current. A 304 answers for the stored
    /// response whose validators were sent: it is freshened with the 304's fields (RFC 9111
    /// §4.3.4) — with every other stored response the 304's validator applies to — and returned
    /// as a 200. Anything else replaces them. Only a caller whose own request was conditional
    /// receives the 304 itself.
    private func validate(
        _ selected: Int,
        request: PreparedRequest,
        key: String,
        stored: [CachedResponse],
        next: Next
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
        if (500..<600).contains(response.status),
            let stale = staleAnswer(stored[selected], for: request, afterStatus: response.status)
        {
            return stale
        }
        // A 304 that came through a redirect speaks for another URL than the one stored.
        if response.status == 304, !hasOwnConditions, response.url != request.url {
            return try await fetch(request, key: key, stored: stored, next: next)
        }
        guard response.status == 304, !hasOwnConditions else {
            return await remember(
                response,
                for: request,
                key: key,
                stored: stored,
                sentAt: sentAt,
                receivedAt: receivedAt
            )
        }
        // A 304 without a validator of its own is about the response the cache asked about.
        let carriesValidator =
            response.head.headerFields[.eTag] != nil || response.head.headerFields[.lastModified] != nil
        var updated = stored
        var freshenedSelected = false
        for index in updated.indices
        where (index == selected && !carriesValidator)
            || CacheValidation.notModified(response.head, applies: updated[index].head)
        {
            updated[index].head = CacheValidation.updating(updated[index].head, with: response.head)
            updated[index].requestTime = sentAt
            updated[index].responseTime = receivedAt
            freshenedSelected = freshenedSelected || index == selected
        }
        guard freshenedSelected else {
            // The 304 names another representation than the one asked about: ask once more,
            // without conditions.
            return try await fetch(request, key: key, stored: stored, next: next)
        }
        if !CacheControl(response.head.headerFields[values: .cacheControl]).noStore {
            await cache.store(updated, forKey: key)
        }
        return answer(updated[selected], outcome: .revalidated, to: request)
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
        case .connectionRefused?, .connectionLost?, .timedOut?, .hostNotFound?:
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
        if CacheControl(request.head.headerFields[values: .cacheControl]).noCache { return false }
        guard let window else { return true }
        return stored.freshness(now: now()).staleness <= Double(window)
    }

    private func staleAnswer(_ stored: CachedResponse, _ request: PreparedRequest) -> RawResponse {
        answer(stored, outcome: .stale, to: request)
    }

    // MARK: - Filling

    /// Sends `request` and stores the response if it may be stored.
    private func fetch(
        _ request: PreparedRequest,
        key: String,
        stored: [CachedResponse],
        next: Next
    ) async throws(RequestError) -> RawResponse {
        let sentAt = now()
        let response = try await next(request)
        return await remember(response, for: request, key: key, stored: stored, sentAt: sentAt, receivedAt: now())
    }

    private func remember(
        _ response: RawResponse,
        for request: PreparedRequest,
        key: String,
        stored: [CachedResponse],
        sentAt: Date,
        receivedAt: Date
    ) async -> RawResponse {
        var response = response
        response.cacheOutcome = .miss
        // A response that arrived through redirects belongs to another URL.
        guard request.head.method == .get, response.url == request.url,
            CacheRules.isStorable(request: request.head, response: response.head),
            let names = CacheRules.varyingFieldNames(of: response.head)
        else { return response }
        let entry = CachedResponse(
            head: response.head,
            body: response.body,
            url: response.url,
            requestTime: sentAt,
            responseTime: receivedAt,
            selectingValues: cache.secrets.selectingValues(for: names, in: request.head)
        )
        var variants = stored.filter { !$0.matches(request.head, secrets: cache.secrets) }
        variants.append(entry)
        await cache.store(variants, forKey: key)
        return response
    }

    // MARK: - Invalidation

    private static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// Forgets the request's URL, and the `Location` and `Content-Location` URLs of the response
    /// on the same origin (RFC 9111 §4.4).
    private func invalidate(after request: PreparedRequest, response: RawResponse) async {
        await cache.remove(key: Self.key(for: request))
        guard let origin = URL(string: request.url) else { return }
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = response.head.headerFields[name], let target = URL(string: value, relativeTo: origin)
            else { continue }
            let absolute = target.absoluteURL
            guard absolute.scheme?.lowercased() == origin.scheme?.lowercased(),
                absolute.host?.lowercased() == origin.host?.lowercased(), absolute.port == origin.port
            else { continue }
            await cache.remove(key: Self.key(url: absolute.absoluteString))
        }
    }

    // MARK: - Keys

    /// GET and HEAD share entries: a stored GET answers a HEAD.
    static func key(for request: PreparedRequest) -> String {
        key(url: request.url)
    }

    static func key(url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        return url[..<schemeEnd.upperBound].lowercased() + rest[..<authorityEnd].lowercased() + rest[authorityEnd...]
    }
}
