import Foundation
import HTTPTypes

extension Caching {
    // MARK: - Filling

    /// Sends `request` and stores the response if it may be stored.
    func fetch(_ request: PreparedRequest, key: String, next: Middleware.Next) async throws(RequestError) -> RawResponse
    {
        let sentAt = now()
        let response = try await next(request)
        return await remember(response, for: request, key: key, sentAt: sentAt, receivedAt: now())
    }

    /// The response, marked a miss, after storing it if it may be stored.
    func remember(
        _ response: RawResponse,
        for request: PreparedRequest,
        key: String,
        sentAt: Date,
        receivedAt: Date
    ) async -> RawResponse {
        var response = response
        response.cacheOutcome = .miss
        _ = await store(response, for: request, key: key, sentAt: sentAt, receivedAt: receivedAt)
        return response
    }

    /// Stores `response` as the variant for `request` if it may be stored, a part (206)
    /// combined with the stored parts of the same representation (RFC 9111 §3.3, §3.4). It reads
    /// what is stored now, not what was stored when the request was sent: another request may
    /// have stored a newer response meanwhile.
    ///
    /// - Returns: The entry now stored for the request's variant; `nil` when nothing was stored.
    private func store(
        _ response: RawResponse,
        for request: PreparedRequest,
        key: String,
        sentAt: Date,
        receivedAt: Date
    ) async -> CachedResponse? {
        // A response that arrived through redirects belongs to another URL.
        guard request.head.method == .get, response.url == request.url,
            CacheRules.isStorable(request: request.head, response: response.head),
            let names = CacheRules.varyingFieldNames(of: response.head),
            !(request.hasCookieStore && names.contains("cookie")),
            !response.carriedStoredCookies || CacheRules.mayStoreForCredentials(response.head),
            Self.hasItsWholeBody(response)
        else { return nil }
        var entry = CachedResponse(
            head: response.head,
            body: response.body,
            url: response.url,
            requestTime: sentAt,
            responseTime: receivedAt,
            selectingValues: cache.secrets.selectingValues(for: names, in: request.head)
        )
        let stored = await cache.variants(forKey: key)
        if response.status == 206 {
            let previous = selectedIndex(in: stored, for: request).map { stored[$0] }
            guard let part = Self.part(response, joining: previous) else { return nil }
            (entry.head, entry.body, entry.partial) = part
        }
        var variants = stored.filter { !$0.matches(request.head, secrets: cache.secrets) }
        variants.append(entry)
        await cache.store(variants, forKey: key)
        return entry
    }

    /// Whether the body is as long as `Content-Length` says, where it says: a response whose body
    /// went elsewhere (a download's file, a stream) or was cut short is never stored.
    private static func hasItsWholeBody(_ response: RawResponse) -> Bool {
        guard let length = response.head.headerFields[.contentLength] else { return true }
        return Int(length) == response.body.count
    }

    /// A 206 as a stored response: alone, or joined to `previous` when that holds the same
    /// representation (the same strong validator and length). `nil` when the part cannot be
    /// stored: no single `Content-Range` with a known length, a body of another size than the
    /// range, no strong validator to join later parts with, or too many scattered parts.
    private static func part(
        _ response: RawResponse,
        joining previous: CachedResponse?
    ) -> (head: HTTPResponse, body: Data, partial: PartialContent?)? {
        guard let field = response.head.headerFields[.contentRange], let range = ContentRange(field),
            let total = range.total.flatMap({ Int(exactly: $0) }), range.offsets.count == response.body.count,
            CacheValidation.strongValidator(of: response.head) != nil
        else { return nil }
        var head = response.head
        head.headerFields[.contentRange] = nil
        head.headerFields[.contentLength] = nil
        var parts: PartialContent
        var body: Data
        if let previous, previous.completeLength == total,
            CacheValidation.sameRepresentation(response.head, previous.head)
        {
            guard let stored = previous.partial else {
                // Complete already: the part brings only fresher header fields.
                head.status = .ok
                head.headerFields[.contentLength] = String(total)
                return (head, previous.body, nil)
            }
            guard let merged = stored.merging(response.body, at: range.offsets.lowerBound, body: previous.body) else {
                return nil
            }
            (parts, body) = merged
        } else {
            guard let part = PartialContent(part: range.offsets, completeLength: total) else { return nil }
            (parts, body) = (part, response.body)
        }
        guard parts.isComplete else { return (head, body, parts) }
        head.status = .ok
        head.headerFields[.contentLength] = String(total)
        return (head, body, nil)
    }

    // MARK: - Completing stored parts

    /// Answers a request that the stored parts `stored[index]` do not cover by asking the
    /// origin for the smallest range that holds the missing bytes, with `If-Range`: the origin
    /// sends that part only if the stored parts are still its representation, and the cache
    /// joins it to them (RFC 9111 §3.4). A complete 200 replaces them. Anything else — no
    /// strong validator, the caller's own conditions, a HEAD, an answer that does not fit —
    /// and the request goes to the origin as it is.
    func complete(
        _ index: Int,
        request: PreparedRequest,
        key: String,
        stored: [CachedResponse],
        next: Middleware.Next
    ) async throws(RequestError) -> RawResponse {
        let selected = stored[index]
        let ownConditions: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifRange, .ifMatch, .ifUnmodifiedSince]
        guard request.head.method == .get, let parts = selected.partial,
            let validator = CacheValidation.strongValidator(of: selected.head),
            !ownConditions.contains(where: { request.head.headerFields[$0] != nil }),
            let missing = parts.missing(in: Self.wantedBytes(of: request, length: parts.completeLength))
        else { return try await fetch(request, key: key, next: next) }
        var ranged = request
        ranged.head.headerFields[.range] = "bytes=\(missing.lowerBound)-\(missing.upperBound - 1)"
        ranged.head.headerFields[.ifRange] = validator
        let sentAt = now()
        let response = try await next(ranged)
        let receivedAt = now()
        if response.status == 200 {
            return await remember(response, for: request, key: key, sentAt: sentAt, receivedAt: receivedAt)
        }
        guard response.status == 206,
            let entry = await store(response, for: ranged, key: key, sentAt: sentAt, receivedAt: receivedAt),
            entry.rangeAnswer(for: request.head) != .notStored
        else { return try await fetch(request, key: key, next: next) }
        return answer(entry, outcome: .revalidated, to: request)
    }

    /// The bytes a GET needs: the range it asks for, else all of them.
    private static func wantedBytes(of request: PreparedRequest, length: Int) -> Range<Int> {
        guard let field = request.head.headerFields[.range], let ranges = ByteRangeRequest(field),
            case .bytes(let range) = ranges.selection(length: length)
        else { return 0..<length }
        return range
    }
}
