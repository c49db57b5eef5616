import CourierTestTraits
import HTTPTypes
import Testing

@testable import Courier

@Suite(.loadLimited)
struct CacheValidationTests {
    private func response(_ fields: [(HTTPField.Name, String)], status: HTTPResponse.Status = .ok) -> HTTPResponse {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
        return HTTPResponse(status: status, headerFields: headers)
    }

    @Test func conditionalRequestsCarryBothValidators() {
        let stored = response([(.eTag, "\"v1\""), (.lastModified, "Sun, 06 Nov 1994 08:49:37 GMT")])
        let fields = CacheValidation.conditionalFields(for: stored)
        #expect(fields[.ifNoneMatch] == "\"v1\"")
        #expect(fields[.ifModifiedSince] == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(CacheValidation.conditionalFields(for: response([])).isEmpty)
    }

    @Test func a304ReplacesFieldsButNotFraming() {
        let stored = response([
            (.eTag, "\"v1\""), (.cacheControl, "max-age=10"), (.contentLength, "5"), (.contentType, "text/plain"),
            (.vary, "Accept"), (.vary, "Accept-Language"), (.age, "20"),
        ])
        let notModified = response(
            [(.eTag, "\"v1\""), (.cacheControl, "max-age=600"), (.contentLength, "0"), (.vary, "Accept")],
            status: .notModified
        )
        let updated = CacheValidation.updating(stored, with: notModified)
        #expect(updated.status == .ok)
        #expect(updated.headerFields[.cacheControl] == "max-age=600")
        #expect(updated.headerFields[.contentLength] == "5")
        #expect(updated.headerFields[.contentType] == "text/plain")
        #expect(updated.headerFields[values: .vary] == ["Accept"])
        #expect(updated.headerFields[.age] == nil, "the age restarts from the 304")
    }

    @Test func a304AppliesOnlyToTheResponseItValidates() {
        let stored = response([(.eTag, "\"v1\""), (.lastModified, "Sun, 06 Nov 1994 08:49:37 GMT")])
        #expect(CacheValidation.notModified(response([(.eTag, "\"v1\"")]), applies: stored))
        #expect(!CacheValidation.notModified(response([(.eTag, "\"v2\"")]), applies: stored))
        #expect(CacheValidation.notModified(response([(.eTag, "W/\"v1\"")]), applies: stored))
        #expect(
            CacheValidation.notModified(response([(.lastModified, "Sun, 06 Nov 1994 08:49:37 GMT")]), applies: stored)
        )
        #expect(!CacheValidation.notModified(response([]), applies: stored))
        #expect(CacheValidation.notModified(response([]), applies: response([])))
    }

    @Test func aWeak304NeverWeakensTheStoredStrongTag() {
        let stored = response([(.eTag, "\"v1\""), (.contentRange, "bytes 0-9/100")])
        let weak = response([(.eTag, "W/\"v1\"")], status: .notModified)
        #expect(CacheValidation.updating(stored, with: weak).headerFields[.eTag] == "\"v1\"")
        #expect(CacheValidation.updating(stored, with: weak).headerFields[.contentRange] == "bytes 0-9/100")
        let storedWeak = response([(.eTag, "W/\"v1\"")])
        #expect(CacheValidation.updating(storedWeak, with: weak).headerFields[.eTag] == "W/\"v1\"")
    }

    @Test func strongValidatorsForIfRangeAndJoiningParts() {
        let date = "Sun, 06 Nov 1994 08:50:37 GMT"
        let minuteBefore = "Sun, 06 Nov 1994 08:49:37 GMT"
        let secondBefore = "Sun, 06 Nov 1994 08:50:36 GMT"
        #expect(CacheValidation.strongValidator(of: response([(.eTag, "\"a\"")])) == "\"a\"")
        #expect(CacheValidation.strongValidator(of: response([(.eTag, "W/\"a\"")])) == nil)
        #expect(
            CacheValidation.strongValidator(of: response([(.date, date), (.lastModified, minuteBefore)]))
                == minuteBefore
        )
        #expect(CacheValidation.strongValidator(of: response([(.date, date), (.lastModified, secondBefore)])) == nil)
        #expect(CacheValidation.strongValidator(of: response([(.lastModified, minuteBefore)])) == nil)

        let tagged = response([(.eTag, "\"a\"")])
        #expect(CacheValidation.sameRepresentation(tagged, tagged))
        #expect(!CacheValidation.sameRepresentation(response([(.eTag, "W/\"a\"")]), response([(.eTag, "W/\"a\"")])))
        #expect(!CacheValidation.sameRepresentation(tagged, response([(.eTag, "\"b\"")])))
        let dated = response([(.date, date), (.lastModified, minuteBefore)])
        #expect(CacheValidation.sameRepresentation(dated, dated))
        #expect(!CacheValidation.sameRepresentation(dated, tagged))
    }
}
