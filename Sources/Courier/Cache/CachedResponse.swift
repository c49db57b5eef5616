import Foundation
import HTTPTypes

/// One stored response: what a cache needs to answer with it, age it and validate it.
struct CachedResponse: Sendable, Equatable {
    /// Status and header fields, as last updated.
    var head: HTTPResponse
    /// The complete body, or for an incomplete response the stored parts back to back.
    var body: Data
    /// Which bytes an incomplete response (stored from 206s) holds; `nil` for a complete one.
    var partial: PartialContent?
    /// The URL it was stored for.
    var url: String
    /// When the request that fetched (or last validated) it was sent.
    var requestTime: Date
    /// When that response arrived.
    var responseTime: Date
    /// The request's values of the fields the response varies on (`nil` for an absent field).
    var selectingValues: [String: String?]

    /// What the memory tier counts against its limit: the body and a rough size of the rest.
    var cost: Int {
        body.count + 256 + head.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
    }

    /// Its freshness at `now`.
    func freshness(now: Date) -> Freshness {
        Freshness(response: head, requestTime: requestTime, responseTime: responseTime, now: now)
    }

    /// Whether it was stored for a request with the same values of the varying fields as
    /// `request`, credentials compared by their hashes.
    func matches(_ request: HTTPRequest, secrets: CacheSecrets) -> Bool {
        guard let names = CacheRules.varyingFieldNames(of: head) else { return false }
        return secrets.selectingValues(for: names, in: request) == selectingValues
    }

    /// The response to hand out: the stored one with `Age` set to its current age.
    func response(now: Date, outcome: CacheOutcome) -> RawResponse {
        var head = self.head
        // Clamped as delta-seconds are: dates from a damaged entry cannot make it trap.
        let age = min(max(0, freshness(now: now).currentAge), Double(CacheControl.maximumDeltaSeconds))
        head.headerFields[.age] = String(Int(age.rounded(.down)))
        var response = RawResponse(head: head, body: body, url: url)
        response.cacheOutcome = outcome
        return response
    }
}

extension CachedResponse: Codable {
    /// Everything but the body, which the disk format stores after the JSON as raw bytes.
    private enum CodingKeys: String, CodingKey {
        case head, url, requestTime, responseTime, selectingValues, partial
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        head = try container.decode(HTTPResponse.self, forKey: .head)
        body = Data()
        url = try container.decode(String.self, forKey: .url)
        requestTime = try container.decode(Date.self, forKey: .requestTime)
        responseTime = try container.decode(Date.self, forKey: .responseTime)
        selectingValues = try container.decode([String: String?].self, forKey: .selectingValues)
        partial = try container.decodeIfPresent(PartialContent.self, forKey: .partial)
    }
}
