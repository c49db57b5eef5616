import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite(.loadLimited)
struct CacheControlTests {
    @Test func readsDirectivesCaseInsensitivelyAcrossFields() {
        let control = CacheControl(["Max-Age=60, no-cache=\"Set-Cookie, X-Id\"", "PRIVATE, must-revalidate"])
        #expect(control.maxAge == 60)
        #expect(control.noCacheFields == ["set-cookie", "x-id"])
        #expect(!control.noCache, "no-cache with field names is qualified")
        #expect(control.isPrivate && control.mustRevalidate)
        #expect(!control.noStore && !control.isPublic)
        #expect(!control.hasInvalidFreshness)
    }

    @Test func quotedAndSpacedArgumentsAreAccepted() {
        #expect(CacheControl(["max-age=\"30\""]).maxAge == 30)
        #expect(CacheControl(["  max-age = 30 , public"]).maxAge == 30)
        #expect(CacheControl(["max-age = 30 , public"]).isPublic)
    }

    @Test func theFirstOfTwoDirectivesWins() {
        #expect(CacheControl(["max-age=10, max-age=20"]).maxAge == 10)
        #expect(CacheControl(["max-age=10", "max-age=20"]).maxAge == 10)
    }

    @Test func invalidFreshnessIsMarked() {
        for value in ["max-age=abc", "max-age=-1", "max-age", "max-age=1.5", "s-maxage=x"] {
            #expect(CacheControl([value]).hasInvalidFreshness, "\(value)")
        }
        #expect(!CacheControl(["max-stale"]).hasInvalidFreshness)
        #expect(CacheControl(["max-stale"]).maxStale == Int.max)
    }

    @Test func fieldNamesQualifyNoCacheAndPrivate() {
        let control = CacheControl(["no-cache=x-a, private=\" X-B ,, x-c \""])
        #expect(control.noCacheFields == ["x-a"])
        #expect(control.privateFields == ["x-b", "x-c"])
        #expect(control.fieldsWithheldUntilValidated == ["x-a", "x-b", "x-c"])
        #expect(!control.noCache && control.isPrivate)
        #expect(CacheControl(["no-cache=\"\""]).noCache, "an empty list leaves it unqualified")
        // Every occurrence counts: names add up, and an unqualified one anywhere wins.
        #expect(CacheControl(["no-cache=a, no-cache=\"b, a\""]).noCacheFields == ["a", "b"])
        let both = CacheControl(["no-cache=\"Set-Cookie\"", "no-cache"])
        #expect(both.noCache, "validated every use")
        #expect(both.noCacheFields == ["set-cookie"], "and withheld where the cache answers without validating")
        #expect(CacheControl(["no-cache=x"]).hasNoCache, "what a request's no-cache=x means")
        #expect(CacheControl(["private"]).privateFields.isEmpty)
    }

    @Test func hugeDeltaSecondsAreCapped() {
        #expect(CacheControl(["max-age=99999999999999999999"]).maxAge == CacheControl.maximumDeltaSeconds)
    }
}

@Suite(.loadLimited)
struct FreshnessTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func response(_ fields: [(HTTPField.Name, String)], status: HTTPResponse.Status = .ok) -> HTTPResponse {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
        return HTTPResponse(status: status, headerFields: headers)
    }

    private func date(_ offset: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: start.addingTimeInterval(offset))
    }

    private func freshness(
        _ response: HTTPResponse,
        requestAt: TimeInterval = 0,
        responseAt: TimeInterval = 0,
        now: TimeInterval
    )
        -> Freshness
    {
        Freshness(
            response: response,
            requestTime: start.addingTimeInterval(requestAt),
            responseTime: start.addingTimeInterval(responseAt),
            now: start.addingTimeInterval(now)
        )
    }

    @Test func maxAgeWinsOverExpires() {
        let stored = response([(.cacheControl, "max-age=100"), (.date, date(0)), (.expires, date(10))])
        #expect(freshness(stored, now: 50).isFresh)
        #expect(!freshness(stored, now: 101).isFresh)
    }

    @Test func expiresCountsFromTheDateField() {
        let stored = response([(.date, date(0)), (.expires, date(60))])
        #expect(freshness(stored, now: 59).lifetime == 60)
        #expect(freshness(stored, now: 59).isFresh)
        #expect(!freshness(stored, now: 61).isFresh)
        #expect(!freshness(response([(.date, date(0)), (.expires, "0")]), now: 0).isFresh)
        // Of two Expires lines the first counts, as in Chrome and Firefox.
        #expect(
            freshness(response([(.date, date(0)), (.expires, date(60)), (.expires, date(120))]), now: 0).lifetime == 60
        )
    }

    @Test func ageFieldAndTransitTimeAddUp() {
        let stored = response([(.cacheControl, "max-age=100"), (.age, "30"), (.date, date(5))])
        let result = freshness(stored, requestAt: 0, responseAt: 5, now: 65)
        #expect(result.currentAge == 95)  // Age 30 + 5 s in transit + 60 s stored
        #expect(result.isFresh)
        #expect(!freshness(stored, requestAt: 0, responseAt: 5, now: 71).isFresh)
    }

    @Test func aDateInThePastMakesTheResponseOlder() {
        let stored = response([(.cacheControl, "max-age=100"), (.date, date(-90))])
        #expect(freshness(stored, now: 5).currentAge == 95)
        #expect(!freshness(stored, now: 11).isFresh)
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() {
        let stored = response([(.date, date(0)), (.lastModified, date(-1000))])
        #expect(freshness(stored, now: 0).lifetime == 100)
        #expect(
            freshness(response([(.date, date(0)), (.lastModified, date(-1000))], status: .created), now: 0).lifetime
                == 0
        )
        #expect(
            freshness(
                response(
                    [(.cacheControl, "public"), (.date, date(0)), (.lastModified, date(-1000))],
                    status: .created
                ),
                now: 0
            )
            .lifetime == 100
        )
    }

    @Test func invalidFreshnessMeansStale() {
        #expect(!freshness(response([(.cacheControl, "max-age=abc"), (.expires, date(100))]), now: 0).isFresh)
        #expect(freshness(response([(.date, date(0))]), now: 0).lifetime == 0)
    }
}
