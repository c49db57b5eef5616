import Courier
import CourierCassettes
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite(.loadLimited)
struct CassetteTests {
    @Test func textAndBinaryBodiesRoundTripThroughJSON() throws {
        let cassette = Cassette(interactions: [
            .init(
                request: .init(
                    method: "POST",
                    url: "https://api.test/upload",
                    headers: [["Content-Type", "image/png"]],
                    body: .init(Data([0x89, 0x50, 0xFF]))
                ),
                response: .init(
                    status: 201,
                    headers: [["Content-Type", "application/json"]],
                    body: .init(Data(#"{"id":1}"#.utf8))
                )
            )
        ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try cassette.write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#""base64" : "iVD/""#))
        #expect(text.contains(#""body" : "{\"id\":1}""#))
        #expect(try Cassette.load(from: file) == cassette)
    }

    @Test func theRecorderRedactsCredentials() async throws {
        let stub = StubTransport()
        stub.on(.get, "/movies", .json(#"{"page":1}"#))
        let recorder = CassetteRecorder()
        let client = HTTPClient(transport: stub, configuration: .init(middleware: [recorder]))
        _ = try await client.send(
            Endpoint<Data>(
                url: URL(string: "https://api.test/movies?api_key=abc123&page=1")!,
                headers: [.authorization: "Bearer t0k3n"]
            )
        )
        let request = try #require(recorder.cassette.interactions.first?.request)
        #expect(request.url == "https://api.test/movies?api_key=REDACTED&page=1")
        #expect(request.headers.contains(["Authorization", "REDACTED"]))
        #expect(recorder.cassette.interactions.first?.response.body?.data == Data(#"{"page":1}"#.utf8))
    }

    @Test func replayMatchesMethodURLAndBodyInRecordedOrder() async throws {
        let cassette = Cassette(interactions: [
            .init(
                request: .init(method: "GET", url: "https://api.test/n"),
                response: .init(status: 200, body: .init(Data("one".utf8)))
            ),
            .init(
                request: .init(method: "GET", url: "https://api.test/n"),
                response: .init(status: 200, body: .init(Data("two".utf8)))
            ),
            .init(
                request: .init(method: "POST", url: "https://api.test/n", body: .init(Data("x".utf8))),
                response: .init(status: 201, body: .init(Data("made".utf8)))
            ),
        ])
        let client = HTTPClient(transport: ReplayTransport(cassette))
        let url = try #require(URL(string: "https://api.test/n"))
        #expect(try await client.send(Endpoint<Data>(url: url)) == Data("one".utf8))
        #expect(try await client.send(Endpoint<Data>(url: url)) == Data("two".utf8))
        #expect(try await client.send(Endpoint<Data>(url: url)) == Data("two".utf8))
        #expect(
            try await client.send(
                Endpoint<Data>(method: .post, url: url, body: .data(Data("x".utf8), contentType: "text/plain"))
            ) == Data("made".utf8)
        )

        let error = await #expect(throws: RequestError.self) {
            try await client.send(
                Endpoint<Data>(method: .post, url: url, body: .data(Data("y".utf8), contentType: "text/plain"))
            )
        }
        #expect(
            error?.message.contains(
                "the cassette has no recording of it (it holds GET https://api.test/n, GET https://api.test/n, POST https://api.test/n)"
            ) == true
        )
    }

    /// Header fields, form fields and JSON members named like secrets are redacted in both
    /// directions; a replayed request with the real secrets still finds its recording.
    @Test func secretsInBodiesAreRedactedAndReplayMatchesThroughThem() async throws {
        let stub = StubTransport()
        stub.on(
            .post,
            "/oauth/token",
            .json(
                #"{"access_token":"at-secret","token_type":"bearer","nested":{"refresh_token":"rt-secret"},"expires_in":3600}"#
            )
        )
        stub.on(.post, "/login", .json(#"{"ok":true,"session":{"id":"sess-secret"}}"#))
        let recorder = CassetteRecorder()
        let client = HTTPClient(transport: stub, configuration: .init(middleware: [recorder]))
        let form = Endpoint<Data>(
            method: .post,
            url: URL(string: "https://auth.test/oauth/token")!,
            headers: [HTTPField.Name("X-Session-Token")!: "header-secret"],
            body: .form([
                ("grant_type", "password"), ("username", "anna"), ("password", "pw-secret"),
                ("client_secret", "cs-secret"),
            ])
        )
        let json = Endpoint<Data>(
            method: .post,
            url: URL(string: "https://auth.test/login?api_key=query-secret")!,
            body: .json(Login(user: "anna", password: "json-secret"))
        )
        _ = try await client.send(form)
        _ = try await client.send(json)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.cassette.write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in [
            "header-secret", "pw-secret", "cs-secret", "at-secret", "rt-secret", "query-secret", "json-secret",
            "sess-secret",
        ] {
            #expect(!text.contains(secret), "the cassette holds \(secret)")
        }
        #expect(text.contains("grant_type=password&username=anna&password=REDACTED&client_secret=REDACTED"))
        #expect(text.contains(#"\"token_type\":\"bearer\""#), "what is not secret is kept as it was")

        let replayed = HTTPClient(transport: ReplayTransport(try Cassette.load(from: file)))
        let answer = try await replayed.send(form)
        #expect(String(decoding: answer, as: UTF8.self).contains(#""access_token":"REDACTED""#))
        _ = try await replayed.send(json)
    }

    /// Credentials inside URLs in free text — a `Location` or `Link` header, a URL in a JSON
    /// string or an HTML page — and in `multipart/form-data` parts are redacted too.
    @Test func secretsInURLsAndMultipartPartsAreRedacted() async throws {
        let stub = StubTransport()
        stub.on(
            .get,
            "/start",
            StubResponse(
                status: .ok,
                headers: [
                    .contentType: "application/json",
                    HTTPField.Name("Link")!: "<https://api.test/page2?access_token=link-secret&page=2>; rel=next",
                    .contentLocation: "https://anna:userinfo-secret@api.test/start",
                ],
                body: Data(
                    #"{"next":"https:\/\/api.test\/n?page=2&api_key=json-url-secret","home":"https://api.test/?q=1"}"#
                        .utf8
                )
            )
        )
        stub.on(
            .post,
            "/upload",
            .text(#"<a href="/cb?code=1&amp;token=html-secret">back</a>"#, contentType: "text/html")
        )
        let recorder = CassetteRecorder()
        let client = HTTPClient(transport: stub, configuration: .init(middleware: [recorder]))
        _ = try await client.send(Endpoint<Data>(url: URL(string: "https://api.test/start")!))
        let boundary = "courier-boundary"
        let multipart = [
            "--\(boundary)", #"Content-Disposition: form-data; name="title""#, "", "holiday",
            "--\(boundary)", #"Content-Disposition: form-data; name="password""#, "", "part-secret",
            "--\(boundary)--", "",
        ].joined(separator: "\r\n")
        _ = try await client.send(
            Endpoint<Data>(
                method: .post,
                url: URL(string: "https://api.test/upload")!,
                body: .data(Data(multipart.utf8), contentType: "multipart/form-data; boundary=\"\(boundary)\"")
            )
        )
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.cassette.write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["link-secret", "userinfo-secret", "json-url-secret", "html-secret", "part-secret"] {
            #expect(!text.contains(secret), "the cassette holds \(secret)")
        }
        for kept in ["page=2>; rel=next", "holiday", "https://api.test/?q=1", "code=REDACTED&amp;token=REDACTED"] {
            #expect(text.contains(kept), "the cassette lost \(kept)")
        }
    }

    /// The one rule, on the names real services use: credentials, and names that only look
    /// like them.
    @Test func secretNamesAreCredentialsAndOnlyThose() {
        for name in [
            "Authorization", "password", "client_secret", "access_token", "api_key", "apiKey", "X-Functions-Key",
            "subscription-key", "key", "accessKey", "jsessionid", "private_key", "proxy_authorization", "primaryKey",
            "secondaryKey", "key1", "serverKey", "writeKey", "routing_key", "otp", "pin",
        ] {
            #expect(Redaction.isSecretName(name), "\(name) is a credential")
        }
        for name in [
            "max_tokens", "prompt_tokens", "totalTokens", "token_type", "expires_in", "public_key", "publicKey",
            "sort-key", "Idempotency-Key", "author", "title", "client_id", "code", "state",
        ] {
            #expect(!Redaction.isSecretName(name), "\(name) is not a credential")
        }
    }

    @Test func jsonAndFormBodiesAreRedactedWhateverTheyHold() {
        let json = #"{"headers":{"Authorization":"Bearer sk-1"},"usage":{"max_tokens":100},"password_set":true}"#
        #expect(
            Redaction.redactingBody(Data(json.utf8), contentType: "application/json")
                == Data(
                    #"{"headers":{"Authorization":"REDACTED"},"usage":{"max_tokens":100},"password_set":true}"#.utf8
                )
        )
        // A form with a byte that is not UTF-8, and one sent without a type.
        let form = Data("name=caf".utf8) + Data([0xE9]) + Data("&password=pw secret&x=1".utf8)
        #expect(
            Redaction.redactingBody(form, contentType: "application/x-www-form-urlencoded")
                == Data("name=caf".utf8) + Data([0xE9]) + Data("&password=REDACTED&x=1".utf8)
        )
        #expect(
            Redaction.redactingBody(Data("user=a&password=pw".utf8), contentType: nil)
                == Data("user=a&password=REDACTED".utf8)
        )
        #expect(Redaction.redactingBody(Data("plain words".utf8), contentType: nil) == Data("plain words".utf8))
    }

    @Test func urlRedactionInFreeTextIsExactAndLinear() {
        let cases: [(String, String)] = [
            ("see https://h/x?a=1&Api_Key=k1#frag now", "see https://h/x?a=1&Api_Key=REDACTED#frag now"),
            ("ftp://u:p@h/ and mailto me@x", "ftp://REDACTED@h/ and mailto me@x"),
            ("?token=REDACTED&sig=", "?token=REDACTED&sig="),
            ("no urls here: a & b; c = d", "no urls here: a & b; c = d"),
            ("http://h/?%74oken=t", "http://h/?%74oken=REDACTED"),
            ("https://c/cb#access_token=t1&token_type=bearer", "https://c/cb#access_token=REDACTED&token_type=bearer"),
            ("https://shop/cart;jsessionid=ABC?x=1", "https://shop/cart;jsessionid=REDACTED?x=1"),
            ("postgres://u:pa@ss@db/x and ssh://git@h", "postgres://REDACTED@db/x and ssh://REDACTED@h"),
            ("see https://h/?token=abc,def.", "see https://h/?token=REDACTED"),
            (#""https:\/\/x\/?access_token=AbC\/dEf==""#, #""https:\/\/x\/?access_token=REDACTED""#),
            (#""https://x/?page=2\u0026access_token=S3""#, #""https://x/?page=2\u0026access_token=REDACTED""#),
            ("https://app/cb?code=c0de&state=s", "https://app/cb?code=REDACTED&state=s"),
        ]
        for (input, expected) in cases {
            #expect(Redaction.redactingURLs(in: input) == expected, "\(input)")
        }
        // One URL: its values end only at its own delimiters.
        #expect(Redaction.redactingURL("https://h/p?a=1&sig=x,y)z#frag") == "https://h/p?a=1&sig=REDACTED#frag")
        #expect(Redaction.redactingURL("https://h/p#id_token=x;b=2") == "https://h/p#id_token=REDACTED;b=2")
        // A megabyte of near-misses passes in one scan.
        let near = String(repeating: "&token", count: 100_000) + String(repeating: "://aaaa", count: 100_000)
        #expect(Redaction.redactingURLs(in: near) == near)
    }

    /// A body whose members keep their order from one encoding to the next.
    struct Login: Encodable {
        var user: String
        var password: String
    }

    @Test func bodyRedactionKeepsEveryOtherByteAndIsLinear() {
        let cases: [(String, String)] = [
            (
                #"{"a": 1, "token" : "x\"y", "b":[{"Password":{"deep":[1,2,"]"]}}], "c":"token"}"#,
                #"{"a": 1, "token" : "REDACTED", "b":[{"Password":"REDACTED"}], "c":"token"}"#
            ),
            (#"[{"api_key":12.5e3},{"secret":null}]"#, #"[{"api_key":"REDACTED"},{"secret":null}]"#),
            (#"{"pass\u0077ord":"p"}"#, #"{"pass\u0077ord":"REDACTED"}"#),
            (#"{"title":"no secrets here"}"#, #"{"title":"no secrets here"}"#),
            (#"{"token":"unterminated"#, #"{"token":"unterminated"#),
        ]
        for (input, expected) in cases {
            let output = Redaction.redactingBody(Data(input.utf8), contentType: "application/json")
            #expect(String(decoding: output, as: UTF8.self) == expected, "\(input)")
        }
        #expect(
            Redaction.redactingBody(Data("a=1&token=t&b=2".utf8), contentType: "application/x-www-form-urlencoded")
                == Data("a=1&token=REDACTED&b=2".utf8)
        )
        #expect(Redaction.redactingBody(Data("token=t".utf8), contentType: "text/plain") == Data("token=t".utf8))
        // A megabyte of nesting and quotes passes in one scan.
        let deep = Data((String(repeating: "[", count: 500_000) + String(repeating: "]", count: 500_000)).utf8)
        #expect(Redaction.redactingBody(deep, contentType: nil) == deep)
        let quotes = Data(("{" + String(repeating: #""k":"v","#, count: 100_000) + #""secret":"s"}"#).utf8)
        #expect(Redaction.redactingBody(quotes, contentType: nil).count == quotes.count + 7)
    }

    @Test(arguments: [0, 42, 99, 100, 101, 199, 1000, -200])
    func aCassetteWithAnImpossibleStatusIsRefusedWithItsEntry(status: Int) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let text =
            #"{"version":1,"interactions":[{"request":{"method":"GET","url":"https://a.test/ok","headers":[]},"response":{"status":200,"headers":[]}},{"request":{"method":"GET","url":"https://a.test/bad","headers":[]},"response":{"status":\#(status),"headers":[]}}]}"#
        try Data(text.utf8).write(to: file)
        let error = #expect(throws: CassetteError.self) { try Cassette.load(from: file) }
        #expect(
            error?.description
                == "Cassette \(file.path) has an impossible status in entry 2 (GET https://a.test/bad): \(status) is not a final HTTP status (200…999)."
        )
    }
}
