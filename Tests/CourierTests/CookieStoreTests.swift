import CourierTestTraits
import Foundation
import Testing

@testable import Courier

/// The cookie rules of RFC 6265bis, in memory and in a file: what is stored, where each
/// cookie goes, and in which order.
@Suite(.loadLimited)
struct CookieStoreTests {
    static let suffixes = PublicSuffixList(rules: "com\nuk\nco.uk\n*.ck\n!www.ck\ngithub.io\n公司.cn\ncn")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func store() -> CookieStore { CookieStore(publicSuffixes: Self.suffixes) }

    func header(_ store: CookieStore, _ url: String) async -> String? {
        let url = URL(string: url)!
        return await store.header(
            scheme: url.scheme!,
            host: url.host!,
            path: url.path.isEmpty ? "/" : url.path,
            now: Self.now
        )
    }

    func receive(_ store: CookieStore, _ url: String, _ fields: String...) async {
        await store.receive(fields, from: URL(string: url)!, now: Self.now)
    }

    // MARK: - Domains

    @Test func aCookieGoesToItsHostOnlyUnlessItNamesADomain() async {
        let store = store()
        await receive(store, "https://www.example.com/", "host=1", "domain=2; Domain=.Example.COM")
        #expect(await header(store, "https://www.example.com/") == "host=1; domain=2")
        #expect(await header(store, "https://api.example.com/") == "domain=2")
        #expect(await header(store, "https://example.com/") == "domain=2")
        #expect(await header(store, "https://badexample.com/") == nil)
        #expect(await header(store, "https://sub.www.example.com/") == "domain=2")
    }

    @Test func noCookieForAPublicSuffixOrAnotherDomain() async {
        let store = store()
        await receive(
            store,
            "https://www.example.co.uk/",
            "suffix=1; Domain=co.uk",
            "top=1; Domain=uk",
            "other=1; Domain=example.org",
            "child=1; Domain=api.www.example.co.uk",
            "own=1; Domain=example.co.uk"
        )
        #expect(await header(store, "https://www.example.co.uk/") == "own=1")
        #expect(await header(store, "https://other.co.uk/") == nil)
        // Wildcards and exceptions.
        await receive(store, "https://a.b.ck/", "w=1; Domain=b.ck")
        await receive(store, "https://x.www.ck/", "e=1; Domain=www.ck")
        #expect(await header(store, "https://c.b.ck/") == nil)
        #expect(await header(store, "https://y.www.ck/") == "e=1")
        // Unicode rules hold in their ASCII form, and a Unicode Domain is read in it.
        await receive(store, "https://shop.xn--55qx5d.cn/", "idn=1; Domain=xn--55qx5d.cn", "uni=1; Domain=公司.cn")
        #expect(await header(store, "https://other.xn--55qx5d.cn/") == nil)
        #expect(await header(store, "https://shop.xn--55qx5d.cn/") == nil)
    }

    @Test func aPublicSuffixThatIsTheHostGetsAHostOnlyCookie() async {
        let store = store()
        await receive(store, "https://github.io/", "own=1; Domain=github.io")
        #expect(await header(store, "https://github.io/") == "own=1")
        #expect(await header(store, "https://someone.github.io/") == nil)
    }

    @Test func anIPAddressGetsItsOwnCookiesOnly() async {
        let store = store()
        await receive(store, "http://127.0.0.1:8080/", "ip=1", "wide=1; Domain=0.0.1", "same=1; Domain=127.0.0.1")
        #expect(await header(store, "http://127.0.0.1:9090/") == "ip=1; same=1")
        #expect(await header(store, "http://[::1]/") == nil)
        // An address in a short form a resolver reads is an address too.
        await store.receive(["short=1; Domain=2.3"], scheme: "http", host: "1.2.3", path: "/", now: Self.now)
        #expect(await store.all(now: Self.now).map(\.name) == ["ip", "same"])
    }

    @Test func aTrailingDotMakesAnotherHost() async {
        let store = store()
        await store.receive(["local=1"], scheme: "http", host: "localhost", path: "/", now: Self.now)
        #expect(await store.header(scheme: "http", host: "localhost.", path: "/", now: Self.now) == nil)
        #expect(await store.header(scheme: "http", host: "localhost", path: "/", now: Self.now) == "local=1")
    }

    @Test func withoutAListADomainCookieGoesBackToItsHostOnly() async {
        let store = CookieStore(publicSuffixes: PublicSuffixList(rules: ""))
        await receive(store, "https://www.example.com/", "d=1; Domain=example.com", "top=1; Domain=com")
        #expect(await header(store, "https://www.example.com/") == "d=1")
        #expect(await header(store, "https://api.example.com/") == nil)
    }

    // MARK: - Paths and order

    @Test func pathsMatchWholeSegmentsAndLongerPathsGoFirst() async {
        let store = store()
        await receive(store, "https://example.org/docs/page", "default=1", "root=1; Path=/", "deep=1; Path=/docs/api/")
        #expect(await header(store, "https://example.org/docs") == "default=1; root=1")
        #expect(await header(store, "https://example.org/docs/api/x") == "deep=1; default=1; root=1")
        #expect(await header(store, "https://example.org/docsx") == "root=1")
        #expect(await header(store, "https://example.org/") == "root=1")
        #expect(CookieStore.defaultPath(of: "/") == "/")
        #expect(CookieStore.defaultPath(of: "/a") == "/")
        #expect(CookieStore.defaultPath(of: "/a/b/c") == "/a/b")
        #expect(CookieStore.defaultPath(of: "relative") == "/")
    }

    @Test func anUpdateKeepsItsPlaceAndABareValueHasNoName() async {
        let store = store()
        await receive(store, "https://example.org/", "a=1", "b=2")
        await receive(store, "https://example.org/", "a=3", "bare")
        #expect(await header(store, "https://example.org/") == "a=3; b=2; bare")
    }

    // MARK: - Secure, prefixes, lifetimes

    @Test func secureCookiesComeAndGoOverHTTPSOnly() async {
        let store = store()
        await receive(store, "http://example.org/", "plain=1", "notset=1; Secure")
        await receive(store, "https://example.org/", "secret=1; Secure")
        #expect(await header(store, "http://example.org/") == "plain=1")
        #expect(await header(store, "https://example.org/") == "plain=1; secret=1")
        // Cleartext cannot shadow it.
        await receive(store, "http://example.org/", "secret=spoofed")
        #expect(await header(store, "https://example.org/") == "plain=1; secret=1")
    }

    @Test func prefixedNamesKeepTheirPromises() async {
        let store = store()
        await receive(
            store,
            "https://www.example.org/",
            "__Secure-a=1",
            "__Secure-b=1; Secure",
            "__Host-c=1; Secure; Path=/",
            "__Host-d=1; Secure",
            "__Host-e=1; Secure; Path=/; Domain=example.org",
            "__host-f=1; Path=/",
            // Nameless: sent as the value alone, which would read as a prefixed name.
            "=__Host-g=1; Path=/; Domain=example.org",
            "__SECURE-h=1"
        )
        #expect(await header(store, "https://www.example.org/") == "__Secure-b=1; __Host-c=1")
    }

    @Test func maxAgeWinsAndExpiredCookiesAreRemoved() async {
        let store = store()
        await receive(
            store,
            "https://example.org/",
            "a=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            "b=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=60",
            "c=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            "d=1; Max-Age=0",
            "e=1; Max-Age=99999999999999999999999"
        )
        #expect(await header(store, "https://example.org/") == "a=1; b=1; e=1")
        let e = await store.all(now: Self.now).first { $0.name == "e" }
        #expect(e?.expires == Self.now + 400 * 86_400)
        await receive(store, "https://example.org/", "a=gone; Max-Age=-1")
        #expect(await header(store, "https://example.org/") == "b=1; e=1")
        let later = await store.cookies(for: URL(string: "https://example.org/")!, now: Self.now + 61)
        #expect(later.map(\.name) == ["e"])
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("6 nov 1994 8:49:37", 784_111_777),
        ("Thu, 01-Jan-2070 00:00:00 GMT", 3_155_760_000),
        ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600),
    ])
    func readsTheDatesServersSend(_ text: String, _ seconds: Double) {
        #expect(CookieDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1600 08:49:37 GMT",
        "06 Nov 1994", "08:49:37 1994 Nov", "", "1e10", "Sun, 06 Nov 19945 08:49:37 GMT",
    ])
    func refusesDatesThatAreNot(_ text: String) {
        #expect(CookieDate.parse(text) == nil)
    }

    // MARK: - What is ignored

    @Test func ignoresControlCharactersOversizedPairsAndEmptyOnes() async {
        let store = store()
        await receive(
            store,
            "https://example.org/",
            "a=1\u{1}",
            "=",
            " ; Path=/",
            "big=" + String(repeating: "x", count: 4094),
            "fits=" + String(repeating: "x", count: 4091),
            "long=1; Path=/" + String(repeating: "p", count: 1024)
        )
        let names = await store.all(now: Self.now).map(\.name)
        #expect(names == ["fits", "long"])
        // An attribute longer than 1024 bytes is ignored: the default path applies.
        #expect(await store.all(now: Self.now).last?.path == "/")
    }

    @Test func splitsTheSetCookieFieldsFoundationJoins() {
        let joined = "a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Path=/, b=2,c=3; Secure, d"
        #expect(
            SetCookie.fields(inCombined: joined) == [
                "a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Path=/", "b=2", "c=3; Secure, d",
            ]
        )
        #expect(SetCookie.fields(inCombined: "plain=1") == ["plain=1"])
    }

    // MARK: - Limits

    @Test func keepsASitesLimitDroppingTheLeastRecentlySent() async {
        let store = store()
        for batch in 0..<4 {
            let fields = (0..<45).map { "c\(batch * 45 + $0)=1; Domain=example.org" }
            await store.receive(fields, scheme: "https", host: "www.example.org", path: "/", now: Self.now)
        }
        // All are sent at +1; c0 is set again at +2, so one of the others is the least
        // recently used when the 181st arrives, from another host of the same site.
        _ = await store.header(scheme: "https", host: "example.org", path: "/", now: Self.now + 1)
        await store.receive(
            ["c0=2; Domain=example.org"],
            scheme: "https",
            host: "example.org",
            path: "/",
            now: Self.now + 2
        )
        await store.receive(["last=1"], scheme: "https", host: "api.example.org", path: "/", now: Self.now + 3)
        let names = Set(await store.all(now: Self.now).map(\.name))
        #expect(names.count == CookieStore.maximumPerSite)
        #expect(names.contains("c0") && names.contains("last"))
    }

    @Test func aCleartextResponseNeverEvictsASecureCookie() async {
        let store = store()
        await receive(store, "https://example.org/", "sid=1; Secure; Domain=example.org; Path=/")
        for batch in 0..<5 {
            let fields = (0..<40).map { "junk\(batch * 40 + $0)=1; Domain=example.org; Path=/" }
            await store.receive(fields, scheme: "http", host: "x.example.org", path: "/", now: Self.now + 1)
        }
        await store.receive(
            ["sid=evil; Domain=example.org; Path=/"],
            scheme: "http",
            host: "x.example.org",
            path: "/",
            now: Self.now + 2
        )
        let cookies = await store.all(now: Self.now)
        #expect(cookies.count == CookieStore.maximumPerSite)
        #expect(cookies.filter { $0.name == "sid" }.map(\.value) == ["1"])
    }

    @Test func oneSiteCannotFlushAnothersCookies() async {
        let store = store()
        await receive(store, "https://bank.example.org/", "session=keep")
        for round in 0..<80 {
            let fields = (0..<50).map { "f\(round)-\($0)=1" }
            await store.receive(fields, scheme: "https", host: "evil.example.com", path: "/", now: Self.now + 1)
        }
        #expect(await header(store, "https://bank.example.org/") == "session=keep")
        #expect(await store.all(now: Self.now).count == 1 + CookieStore.maximumPerSite)
    }

    @Test func keepsThreeThousandInAllAndFiftyFieldsAResponse() async {
        let store = store()
        for host in 0..<61 {
            let fields = (0..<60).map { "c\($0)=1" }
            await store.receive(fields, scheme: "https", host: "h\(host).test", path: "/", now: Self.now)
        }
        #expect(await store.all(now: Self.now).count == CookieStore.maximumCount)
        let one = await store.cookies(for: URL(string: "https://h60.test/")!, now: Self.now)
        #expect(one.count == CookieStore.maximumFieldsPerResponse)
    }

    // MARK: - The file

    @Test func aFileIsWrittenPrivatelyAndReadBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("jar.txt")
        let store = try CookieStore(file: file, publicSuffixes: Self.suffixes, now: Self.now)
        await receive(
            store,
            "https://www.example.org/app/x",
            "session=s3cr3t; HttpOnly",
            "wide=1; Domain=example.org; Path=/; Secure; Max-Age=3600"
        )
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("#HttpOnly_www.example.org\tFALSE\t/app\tFALSE\t0\tsession\ts3cr3t\n"))
        #expect(text.contains(".example.org\tTRUE\t/\tTRUE\t\(Int(Self.now.timeIntervalSince1970) + 3600)\twide\t1\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["jar.txt"])

        let again = try CookieStore(file: file, publicSuffixes: Self.suffixes, now: Self.now)
        let cookies = await again.all(now: Self.now)
        #expect(cookies.map(\.name) == ["session", "wide"])
        #expect(cookies.first?.isHTTPOnly == true)
        #expect(cookies.last?.isHostOnly == false)
        #expect(await header(again, "https://api.example.org/") == "wide=1")
        // An hour later the persistent one has expired, and is not read.
        let later = try CookieStore(file: file, publicSuffixes: Self.suffixes, now: Self.now + 3601)
        #expect(await later.all(now: Self.now + 3601).map(\.name) == ["session"])
    }

    @Test func readsCurlsFilesAndRefusesOthersByLine() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("curl.txt")
        try """
        # Netscape HTTP Cookie File
        # https://curl.se/docs/http-cookies.html
        # This file was generated by libcurl! Edit at your own risk.

        #HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc
        .example.org\tTRUE\t/\tTRUE\t4102444800\tpref\tdark
        example.org\tFALSE\t/\tFALSE\t0\tempty\t

        """.write(to: file, atomically: true, encoding: .utf8)
        let store = try CookieStore(file: file, publicSuffixes: Self.suffixes, now: Self.now)
        #expect(await store.all(now: Self.now).map(\.name) == ["sid", "pref", "empty"])

        for (line, bad) in [
            (1, "example.org\tTRUE\t/\n"), (2, "# c\nexample.org\tMAYBE\t/\tFALSE\t0\ta\tb\n"),
            (1, "example.org\tFALSE\tnoslash\tFALSE\t0\ta\tb\n"), (1, "example.org\tFALSE\t/\tFALSE\t-1\ta\tb\n"),
            (1, "exa mple.org\tFALSE\t/\tFALSE\t0\ta\tb\n"), (1, "example.org\tFALSE\t/\tFALSE\t0\ta\tb\u{7}\n"),
        ] {
            try bad.write(to: file, atomically: true, encoding: .utf8)
            let error = #expect(throws: CookieFileError.self) {
                _ = try CookieStore(file: file, publicSuffixes: Self.suffixes, now: Self.now)
            }
            #expect(error?.reason == "line \(line) is not a cookie in curl's format", "\(bad)")
        }
    }
}
