import CourierTestTraits
import HTTPTypes
import Testing

@testable import Courier

@Suite(.loadLimited)
struct CacheRulesTests {
    private func request(_ method: HTTPRequest.Method = .get, _ fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "https", authority: "api.test", path: "/x", headerFields: fields)
    }

    private func response(_ code: Int = 200, _ fields: HTTPFields = [:]) -> HTTPResponse {
        HTTPResponse(status: .init(code: code), headerFields: fields)
    }

    @Test func storesGetAndHeadWithFreshnessOrAValidator() {
        #expect(CacheRules.isStorable(request: request(), response: response(200, [.cacheControl: "max-age=60"])))
        #expect(CacheRules.isStorable(request: request(.head), response: response(200, [.expires: "0"])))
        #expect(CacheRules.isStorable(request: request(), response: response(200)))  // heuristically cacheable
        #expect(CacheRules.isStorable(request: request(), response: response(404)))
        #expect(!CacheRules.isStorable(request: request(), response: response(201)))
        #expect(CacheRules.isStorable(request: request(), response: response(201, [.cacheControl: "max-age=5"])))
        #expect(!CacheRules.isStorable(request: request(.post), response: response(200, [.cacheControl: "max-age=60"])))
    }

    /// A 206 passes these rules; whether it is stored as a part depends on its Content-Range
    /// and validator, which the cache checks when it joins parts.
    @Test func noStoreAndNotModifiedAreNeverStored() {
        #expect(
            !CacheRules.isStorable(request: request(), response: response(200, [.cacheControl: "max-age=60, no-store"]))
        )
        #expect(!CacheRules.isStorable(request: request(.get, [.cacheControl: "no-store"]), response: response(200)))
        #expect(CacheRules.isStorable(request: request(), response: response(206, [.cacheControl: "max-age=60"])))
        #expect(!CacheRules.isStorable(request: request(), response: response(304, [.cacheControl: "max-age=60"])))
        #expect(!CacheRules.isStorable(request: request(), response: response(200, [.vary: "*"])))
    }

    @Test func authorizedRequestsNeedTheResponsesPermission() {
        let authorized = request(.get, [.authorization: "Bearer t"])
        #expect(!CacheRules.isStorable(request: authorized, response: response(200, [.cacheControl: "max-age=60"])))
        #expect(
            CacheRules.isStorable(request: authorized, response: response(200, [.cacheControl: "public, max-age=60"]))
        )
        #expect(CacheRules.isStorable(request: authorized, response: response(200, [.cacheControl: "must-revalidate"])))
    }

    @Test func varyNamesAreListedOnceInOrder() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .vary, value: "Accept-Language, accept"))
        fields.append(HTTPField(name: .vary, value: "Accept-Encoding,Accept"))
        #expect(
            CacheRules.varyingFieldNames(of: response(200, fields)) == ["accept", "accept-encoding", "accept-language"]
        )
        #expect(CacheRules.varyingFieldNames(of: response(200, [.vary: "Accept, *"])) == nil)
    }

    @Test func selectingValuesAreNormalised() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .acceptLanguage, value: "en,  fr"))
        fields.append(HTTPField(name: .acceptLanguage, value: "de"))
        let values = CacheRules.selectingValues(for: ["accept-language", "accept"], in: request(.get, fields))
        #expect(values["accept-language"] == .some("en,fr,de"))
        #expect(values["accept"] == .some(nil))
    }
}
