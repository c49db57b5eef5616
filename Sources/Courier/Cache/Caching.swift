import Foundation
import HTTPTypes

/// The client's cache stage (``HTTPClient/Configuration/cache``): answers from an
/// ``HTTPCache`` where HTTP's caching rules (RFC 9111, as a private cache) allow, revalidates
/// stale responses with their validators, stores what may be stored, and forgets a URL after a
/// successful unsafe request to it.
///
/// Each ``RawResponse`` says where it came from in ``RawResponse/cacheOutcome``; a request's
/// ``PreparedRequest/cachePolicy`` (set with ``Endpoint/usingCachePolicy(_:)``) can reload,
/// prefer the cache, or stay offline.
///
/// Range requests are answered from stored responses, and parts (206) are stored and combined
/// into complete responses. A response within its `stale-while-revalidate` window is answered
/// at once while the cache revalidates it in the background, with the rest of the client's
/// chain, which outlives the call.
struct Caching: Sendable {
    /// The cache it reads and fills.
    let cache: HTTPCache
    let now: @Sendable () -> Date

    /// Caches through `cache`, reading the time from `now`.
    init(_ cache: HTTPCache, now: @escaping @Sendable () -> Date) {
        self.cache = cache
        self.now = now
    }

    // MARK: - Answering

    /// Answers from the cache, revalidates, or sends and stores, as the rules allow, without
    /// revalidating in the background (for tests, and callers whose `next` may not outlive
    /// the call).
    func send(_ request: PreparedRequest, next: Middleware.Next) async throws(RequestError) -> RawResponse {
        try await send(request, next: next, background: nil)
    }

    /// ``send(_:next:)``, with the chain after this stage as a closure that may outlive the
    /// call, for revalidating in the background; the client's pipeline passes it.
    func send(
        _ request: PreparedRequest,
        next: Middleware.Next,
        background: Middleware.Next?
    ) async throws(RequestError) -> RawResponse {
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
        switch decision(for: request, requestControl: requestControl, stored: stored) {
        case .answer(let response):
            return response
        case .fetch:
            return try await fetch(request, key: key, next: next)
        case .complete(let index):
            return try await complete(index, request: request, key: key, stored: stored, next: next)
        case .validate(let index, let staleWhileRevalidate):
            if let background, staleWhileRevalidate, revalidateInBackground(request, key: key, next: background) {
                return answer(stored[index], outcome: .stale, to: request)
            }
            return try await validate(index, request: request, key: key, stored: stored, next: next)
        }
    }

    /// What the cache answers `request` with without asking the origin, by the rules
    /// ``send(_:next:)`` follows: a stored response that may be used as it is (cut to the range
    /// asked for), a 504 for an offline request with nothing usable stored, or `nil` when the
    /// origin must be asked. Downloads read the cache this way, where the cache stands in their
    /// middleware.
    func storedAnswer(for request: PreparedRequest) async -> RawResponse? {
        let requestControl = CacheControl(request.head.headerFields[values: .cacheControl])
        guard request.head.method == .get || request.head.method == .head, !requestControl.noStore else { return nil }
        let stored = await cache.variants(forKey: Self.key(for: request))
        guard case .answer(let response) = decision(for: request, requestControl: requestControl, stored: stored) else {
            return nil
        }
        return response
    }

    /// What a GET or HEAD needs, given what is stored.
    private enum Decision {
        /// This answer, without the origin.
        case answer(RawResponse)
        /// The origin's answer, stored if it may be.
        case fetch
        /// The stored parts at this index, completed from the origin.
        case complete(Int)
        /// The stored response at this index, validated first, or (`true`) answered at once
        /// while the cache revalidates it in the background, where it can.
        case validate(Int, staleWhileRevalidate: Bool)
    }

    /// The request's policy and directives (RFC 9111 §4, §5.2.1) applied to what is stored.
    private func decision(
        for request: PreparedRequest,
        requestControl: CacheControl,
        stored: [CachedResponse]
    )
        -> Decision
    {
        let policy = request.cachePolicy
        let offline = requestControl.onlyIfCached || policy == .returnCacheDontLoad
        guard let index = selectedIndex(in: stored, for: request) else {
            return offline ? .answer(Self.gatewayTimeout(for: request)) : .fetch
        }
        let selected = stored[index]
        let anyAge = policy == .returnCacheDontLoad || policy == .returnCacheElseLoad
        let holdsIt = selected.rangeAnswer(for: request.head) != .notStored
        if offline {
            // only-if-cached: a stored response that meets the request's other directives, or a
            // 504 (RFC 9111 §5.2.1.7); the offline policy takes a stored response of any age.
            let outcome =
                anyAge
                ? outcomeByAge(selected)
                : usableWithoutValidation(selected, requestControl: requestControl, request: request)
            guard let outcome, holdsIt else { return .answer(Self.gatewayTimeout(for: request)) }
            return .answer(answer(selected, outcome: outcome, to: request))
        }
        if policy == .reloadIgnoringCache { return .fetch }
        guard holdsIt else { return .complete(index) }
        if anyAge { return .answer(answer(selected, outcome: outcomeByAge(selected), to: request)) }
        if let outcome = usableWithoutValidation(selected, requestControl: requestControl, request: request) {
            return .answer(answer(selected, outcome: outcome, to: request))
        }
        let background = mayRevalidateInBackground(selected, requestControl: requestControl, request: request)
        return .validate(index, staleWhileRevalidate: background)
    }

    /// The stored variant that answers `request`: of those stored for the same values of the
    /// fields they vary on, the newest.
    func selectedIndex(in stored: [CachedResponse], for request: PreparedRequest) -> Int? {
        stored.indices.filter {
            stored[$0].matches(request.head, secrets: cache.secrets)
                && !(request.hasCookieStore && stored[$0].selectingValues.keys.contains("cookie"))
        }
        .max { stored[$0].responseTime < stored[$1].responseTime }
    }

    // MARK: - Using stored responses

    /// `.hit` while fresh, `.stale` after.
    private func outcomeByAge(_ stored: CachedResponse) -> CacheOutcome {
        stored.freshness(now: now()).isFresh ? .hit : .stale
    }

    /// Whether the request asks for validation whatever the stored response's age: `no-cache`
    /// (or `Pragma: no-cache` without Cache-Control), or a `max-age` the response is older than,
    /// or a `min-fresh` it cannot meet.
    private func requestDemandsValidation(
        _ stored: CachedResponse,
        requestControl: CacheControl,
        request: PreparedRequest
    ) -> Bool {
        let pragmaNoCache =
            request.head.headerFields[.cacheControl] == nil
            && request.head.headerFields[.pragma]?.lowercased().contains("no-cache") == true
        if requestControl.hasNoCache || pragmaNoCache { return true }
        let freshness = stored.freshness(now: now())
        if let maxAge = requestControl.maxAge, freshness.currentAge > Double(maxAge) { return true }
        if let minFresh = requestControl.minFresh, freshness.lifetime - freshness.currentAge < Double(minFresh) {
            return true
        }
        return false
    }

    /// `.hit` or `.stale` when `stored` may answer without asking the origin (RFC 9111 §4.2,
    /// §5.2.1), `nil` when it must be validated first.
    func usableWithoutValidation(
        _ stored: CachedResponse,
        requestControl: CacheControl,
        request: PreparedRequest
    ) -> CacheOutcome? {
        let responseControl = CacheControl(stored.head.headerFields[values: .cacheControl])
        if responseControl.noCache || requestDemandsValidation(stored, requestControl: requestControl, request: request)
        {
            return nil
        }
        let freshness = stored.freshness(now: now())
        if freshness.isFresh { return .hit }
        if !responseControl.mustRevalidate, let maxStale = requestControl.maxStale,
            freshness.staleness <= Double(maxStale)
        {
            return .stale
        }
        return nil
    }

    /// Whether stale `stored` may answer now while the cache revalidates it: within its
    /// `stale-while-revalidate` window (RFC 5861 §3), with nothing in the response
    /// (`no-cache`, `must-revalidate`, `proxy-revalidate`) or the request asking to validate
    /// first.
    private func mayRevalidateInBackground(
        _ stored: CachedResponse,
        requestControl: CacheControl,
        request: PreparedRequest
    ) -> Bool {
        let control = CacheControl(stored.head.headerFields[values: .cacheControl])
        // Parts are revalidated as they are completed, with If-Range.
        guard stored.partial == nil, let window = control.staleWhileRevalidate, !control.noCache,
            !control.mustRevalidate,
            !control.proxyRevalidate,
            !requestDemandsValidation(stored, requestControl: requestControl, request: request)
        else { return false }
        return stored.freshness(now: now()).staleness <= Double(window)
    }

    /// The stored response as the answer to `request`: a 304 when the caller's own conditions
    /// hold for it (RFC 9111 §4.3.2), without a body for HEAD, and cut to the range a GET asks
    /// for. The fields `no-cache="…"` and `private="…"` name are left out unless the origin
    /// has just confirmed the response.
    func answer(_ stored: CachedResponse, outcome: CacheOutcome, to request: PreparedRequest) -> RawResponse {
        let range = stored.rangeAnswer(for: request.head)
        guard range != .notStored else {
            // Every caller checks that the stored parts hold what the request needs; were one
            // to forget, no part is ever given as something else.
            assertionFailure("answered a request from parts that do not hold it")
            return Self.gatewayTimeout(for: request)
        }
        var response: RawResponse
        if CacheValidation.conditionsHold(in: request.head, for: stored.head) {
            response = stored.response(now: now(), outcome: outcome)
            response.head.status = .notModified
            response.head.headerFields[.contentLength] = nil
            response.body = Data()
        } else if request.head.method == .head {
            response = stored.response(now: now(), outcome: outcome)
            response.body = Data()
        } else {
            response = stored.response(now: now(), outcome: outcome, answer: range)
        }
        if outcome == .hit || outcome == .stale {
            // One pass over the fields, however many names the directives list. The fields the
            // cache writes itself describe its answer, not the origin's.
            let withheld = CacheControl(stored.head.headerFields[values: .cacheControl]).fieldsWithheldUntilValidated
            if !withheld.isEmpty {
                response.head.headerFields = response.head.headerFields.filter { field in
                    !withheld.contains(field.name.canonicalName) || Self.fieldsOfTheAnswer.contains(field.name)
                }
            }
        }
        return response
    }

    /// Fields the cache sets on each answer, which `no-cache="…"` cannot withhold.
    private static let fieldsOfTheAnswer: Set<HTTPField.Name> = [.contentRange, .contentLength, .age]

    /// What an offline request gets when nothing stored can answer it.
    static func gatewayTimeout(for request: PreparedRequest) -> RawResponse {
        var response = RawResponse(head: HTTPResponse(status: .gatewayTimeout), url: request.url)
        response.cacheOutcome = .miss
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
