import Courier
import CourierTestTraits
import StoreSearch
import Testing

/// The country and language a search is made for, and the pause the store asks for (issue 32).
@Suite(.loadLimited)
struct StoreLocaleTests {
    @Test(
        arguments: [
            ("fr_FR.UTF-8", "fr", nil),
            ("ja_JP.eucJP@x", "jp", "ja_jp"),
            ("en-GB", "gb", "en_us"),
            ("en_US", "us", "en_us"),
            ("zh-Hant-TW", "tw", nil),
            ("sr_Latn_RS", "rs", nil),
            ("en", nil, "en_us"),
            ("es-419", nil, nil),
            ("C.UTF-8", nil, nil),
            ("POSIX", nil, nil),
            ("", nil, nil),
            ("f_FR", nil, nil),
            ("fr_FRA", nil, nil),
            ("fr_F1", nil, nil),
            ("ja-JP-\u{0}", "jp", "ja_jp"),
        ] as [(String, String?, String?)]
    )
    func aLocaleNamesItsCountryAndALanguageTheStoreKnows(identifier: String, country: String?, language: String?) {
        let locale = StoreLocale(identifier: identifier)
        #expect(locale.country == country)
        #expect(locale.language == language)
        if let language { #expect(StoreLocale.languages.contains(language)) }
    }

    @Test func aLongNameNamesNothing() {
        #expect(StoreLocale(identifier: "fr_FR." + String(repeating: "x", count: 200)) == StoreLocale())
    }

    @Test func theEnvironmentIsReadAsSetlocaleReadsIt() {
        #expect(StoreLocale.fromEnvironment(["LANG": "de_DE.UTF-8"]).country == "de")
        #expect(StoreLocale.fromEnvironment(["LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP"]).country == "jp")
        #expect(
            StoreLocale.fromEnvironment(["LANG": "de_DE", "LC_MESSAGES": "ja_JP", "LC_ALL": "en_GB"]).country == "gb"
        )
        #expect(StoreLocale.fromEnvironment(["LANG": "de_DE", "LC_ALL": ""]).country == "de")
        #expect(StoreLocale.fromEnvironment([:]) == StoreLocale())
    }

    // MARK: - Rate limits

    static func failure(_ status: Int, retryAfter: Duration? = nil) -> RequestError {
        let request = RequestSummary(method: "GET", url: "https://itunes.apple.com/search?term=x")
        let failure = HTTPFailure(request: request, status: status, reason: "", retryAfter: retryAfter)
        return status < 500 ? .clientError(failure) : .serverError(failure)
    }

    @Test func fourTwentyNineAndFourOThreeAreTheStoresRateLimit() {
        #expect(StoreRateLimit(Self.failure(429, retryAfter: .seconds(30)))?.retryAfter == .seconds(30))
        #expect(StoreRateLimit(Self.failure(403))?.status == 403)
        #expect(StoreRateLimit(Self.failure(404)) == nil)
        #expect(StoreRateLimit(Self.failure(503, retryAfter: .seconds(5))) == nil)
        #expect(StoreRateLimit(.cancelled) == nil)
    }

    @Test func theWaitDoublesWithoutRetryAfterAndAnAnswerEndsTheRun() throws {
        var backoff = StoreBackoff()
        let start = ContinuousClock.now
        let limit = try #require(StoreRateLimit(Self.failure(403)))
        #expect(backoff.remaining(at: start) == nil)
        let waits = (0..<6).map { _ in backoff.refused(limit, at: start) }
        #expect(waits == [.seconds(10), .seconds(20), .seconds(40), .seconds(60), .seconds(60), .seconds(60)])
        #expect(backoff.remaining(at: start) == .seconds(60))
        #expect(backoff.remaining(at: start.advanced(by: .seconds(45))) == .seconds(15))
        #expect(backoff.remaining(at: start.advanced(by: .seconds(60))) == nil)
        backoff.answered()
        #expect(backoff.remaining(at: start) == nil)
        #expect(backoff.refused(limit, at: start) == .seconds(10))
        // A long run of refusals does not overflow.
        for _ in 0..<100 { _ = backoff.refused(limit, at: start) }
        #expect(backoff.refused(limit, at: start) == .seconds(60))
    }

    @Test func retryAfterIsKeptWithinOneSecondAndTenMinutes() throws {
        var backoff = StoreBackoff()
        let now = ContinuousClock.now
        for (asked, wait) in [
            (Duration.seconds(30), Duration.seconds(30)), (.zero, .seconds(1)), (.seconds(300), .seconds(300)),
            (.seconds(86_400), .seconds(600)),
        ] {
            let limit = try #require(StoreRateLimit(Self.failure(429, retryAfter: asked)))
            #expect(backoff.refused(limit, at: now) == wait)
        }
    }
}
