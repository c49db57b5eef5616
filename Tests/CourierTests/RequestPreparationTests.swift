import Courier
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Preparing requests", .loadLimited)
struct RequestPreparationTests {
    let client = HTTPClient(transport: StubTransport())

    @Test func buildsTheURLFromTheEndpoint() throws {
        let endpoint = Endpoint<Data>(
            host: "api.themoviedb.org",
            path: "/3/search/movie",
            query: [URLQueryItem(name: "query", value: "Amélie & Nino"), URLQueryItem(name: "page", value: "2")]
        )
        let request = try client.prepare(endpoint)
        #expect(request.url == "https://api.themoviedb.org/3/search/movie?query=Am%C3%A9lie%20%26%20Nino&page=2")
        #expect(request.head.method == .get)
        #expect(request.head.headerFields[.userAgent] == "Courier/1.0")
    }

    @Test func encodesEveryReservedCharacterInQueryValues() throws {
        let value = "a&b=c+d#e%f/g?h 😀 日本"
        let request = try client.prepare(
            Endpoint<Data>(host: "h", path: "/", query: [URLQueryItem(name: "q", value: value)])
        )
        #expect(request.url == "https://h/?q=a%26b%3Dc%2Bd%23e%25f%2Fg%3Fh%20%F0%9F%98%80%20%E6%97%A5%E6%9C%AC")
        let valueless = try client.prepare(
            Endpoint<Data>(host: "h", path: "/", query: [URLQueryItem(name: "flag", value: nil)])
        )
        #expect(valueless.url == "https://h/?flag")
    }

    @Test func encodesPathsWithoutLettingThemStartAQuery() throws {
        let request = try client.prepare(Endpoint<Data>(host: "h", path: "/books/War & Peace?#/caf%C3%A9"))
        #expect(request.url == "https://h/books/War%20&%20Peace%3F%23/caf%C3%A9")
        #expect(try client.prepare(Endpoint<Data>(host: "h", path: "relative")).url == "https://h/relative")
    }

    @Test func baseURLReplacesSchemeHostAndPortAndPrefixesThePath() throws {
        let local = HTTPClient(
            transport: StubTransport(),
            configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080/api/"))
        )
        let request = try local.prepare(Endpoint<Data>(host: "api.themoviedb.org", port: 443, path: "/3/movie/550"))
        #expect(request.url == "http://127.0.0.1:8080/api/3/movie/550")
    }

    @Test func portsAndIPv6Hosts() throws {
        #expect(
            try client.prepare(Endpoint<Data>(scheme: "http", host: "::1", port: 8080, path: "/x")).url
                == "http://[::1]:8080/x"
        )
        #expect(
            try client.prepare(Endpoint<Data>(scheme: "HTTPS", host: "example.com", port: 8443, path: "/")).url
                == "https://example.com:8443/"
        )
    }

    @Test func absoluteURLKeepsItsQueryVerbatim() throws {
        let url = try #require(URL(string: "https://itunes.apple.com/search?term=hello+world&media=music"))
        let request = try client.prepare(Endpoint(url: url).appending(query: "limit", "5"))
        #expect(request.url == "https://itunes.apple.com/search?term=hello+world&media=music&limit=5")
    }

    @Test func invalidURLsAreExplained() {
        let cases: [(Endpoint<Data>, String)] = [
            (
                Endpoint(path: "/x"),
                "Invalid URL 'https:///x': there is no host; give the endpoint a host or the client a base URL. Check the scheme, host and path."
            ),
            (
                Endpoint(scheme: "ftp", host: "h", path: "/x"),
                "Invalid URL 'ftp://h/x': the scheme must be http or https. Check the scheme, host and path."
            ),
            (
                Endpoint(host: "h", port: 70000, path: "/", query: [URLQueryItem(name: "api_key", value: "SECRET")]),
                "Invalid URL 'https://h:70000/?api_key=REDACTED': the port 70000 is outside 1…65535. Check the scheme, host and path."
            ),
            (
                Endpoint(host: "bad host/x", path: "/"),
                "Invalid URL 'https://bad host/x/': the host 'bad host/x' has characters a host cannot have. Check the scheme, host and path."
            ),
        ]
        for (endpoint, message) in cases {
            let error = #expect(throws: RequestError.self) { try client.prepare(endpoint) }
            #expect(error?.message == message)
            #expect(error?.category == .invalidRequest)
        }
    }

    @Test func endpointHeadersWinOverClientHeaders() throws {
        let endpoint = Endpoint<Data>(host: "h", path: "/", headers: [.userAgent: "Mine/2", .accept: "text/csv"])
        let request = try client.prepare(endpoint)
        #expect(request.head.headerFields[values: .userAgent] == ["Mine/2"])
        #expect(request.head.headerFields[.accept] == "text/csv")
    }

    @Test func decodableEndpointsAskForJSON() throws {
        struct Item: Decodable, Sendable {}
        #expect(
            try client.prepare(Endpoint<Item>(host: "h", path: "/")).head.headerFields[.accept] == "application/json"
        )
        #expect(try client.prepare(Endpoint<Data>(host: "h", path: "/")).head.headerFields[.accept] == nil)
    }

    @Test func bodiesSetTheirContentTypeUnlessGiven() throws {
        let json = try client.prepare(Endpoint<Void>(method: .post, host: "h", path: "/", body: .json(["b": 2])))
        #expect(json.head.headerFields[.contentType] == "application/json")
        #expect(json.body == Data(#"{"b":2}"#.utf8))

        let form = try client.prepare(
            Endpoint<Void>(
                method: .post,
                host: "h",
                path: "/",
                body: .form([("name", "Ada Lovelace"), ("x", "1+1=2")])
            )
        )
        #expect(form.head.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(form.body == Data("name=Ada+Lovelace&x=1%2B1%3D2".utf8))

        let given = try client.prepare(
            Endpoint<Void>(
                method: .post,
                host: "h",
                path: "/",
                headers: [.contentType: "application/vnd.api+json"],
                body: .json([1])
            )
        )
        #expect(given.head.headerFields[values: .contentType] == ["application/vnd.api+json"])
    }

    @Test func bodyThatCannotBeEncodedIsAnError() {
        let endpoint = Endpoint<Void>(method: .post, host: "h", path: "/", body: .json(Double.nan))
        #expect {
            try client.prepare(endpoint)
        } throws: { error in
            guard let error = error as? RequestError, case .invalidBody(let request, _) = error else { return false }
            return request.url == "https://h/"
        }
    }
}
