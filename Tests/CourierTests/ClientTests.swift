import Courier
import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Client", .loadLimited)
struct ClientTests {
    struct Movie: Decodable, Equatable, Sendable {
        var id: Int
        var originalTitle: String
    }

    @Test func decodesWithSnakeCaseConversionPerEndpoint() async throws {
        let stub = StubTransport()
        stub.on(.get, "/movie", .json(#"{"id": 550, "original_title": "Fight Club"}"#))
        let client = HTTPClient(transport: stub)
        let movie = try await client.send(Endpoint<Movie>(host: "api.test", path: "/movie").convertingFromSnakeCase())
        #expect(movie == Movie(id: 550, originalTitle: "Fight Club"))

        let error = await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Movie>(host: "api.test", path: "/movie"))
        }
        let failure = try #require(error?.decodingFailure)
        #expect(failure.reason == "the key 'originalTitle' is missing")
    }

    /// Servers echo what they were sent; the error shows their words, credentials redacted.
    @Test func errorMessagesQuoteTheServerWithoutItsEchoedSecrets() async throws {
        let stub = StubTransport()
        stub.on(.get, "/movie", .text("Invalid key in https://api.test/movie?api_key=sk-live-1", status: .forbidden))
        stub.on(.get, "/show", .json(#"{"error":"bad","access_token":"at-2","detail":"retry"}"#, status: .badRequest))
        let client = HTTPClient(transport: stub)
        for path in ["/movie", "/show"] {
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Data>(host: "api.test", path: path))
            }
            let message = try #require(error?.message)
            #expect(!message.contains("sk-live-1") && !message.contains("at-2"), "\(message)")
        }
    }

    @Test func mapKeepsTheRequestAndTransformsTheValue() async throws {
        struct Wrong: Error {}
        let stub = StubTransport()
        stub.on(.get, "/movie", .json(#"{"id": 550, "original_title": "Fight Club"}"#))
        stub.on(.get, "/page", .text("<html></html>", contentType: "text/html"))
        let client = HTTPClient(transport: stub)
        let movie = Endpoint<Movie>(host: "api.test", path: "/movie", query: [URLQueryItem(name: "q", value: "a&b")])
            .convertingFromSnakeCase()
            .setting(.acceptLanguage, to: "fr")
        let title = movie.map(\.originalTitle)
        #expect(try await client.send(title) == "Fight Club")
        let sent = try #require(stub.requests.last)
        #expect(sent.url == "https://api.test/movie?q=a%26b")
        #expect(sent.head.headerFields[.acceptLanguage] == "fr")
        // The content-type check still applies, and a throwing transform is a decoding error.
        await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Movie>(host: "api.test", path: "/page").map(\.id))
        }
        let error = await #expect(throws: RequestError.self) {
            try await client.send(movie.map { _ -> Int in throw Wrong() })
        }
        #expect(error?.decodingFailure != nil)
    }

    @Test func usesTheInjectedDecoder() async throws {
        struct Event: Decodable, Sendable { var at: Date }
        let stub = StubTransport()
        stub.on(.get, "/event", .json(#"{"at": "2024-05-01T10:00:00Z"}"#))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let client = HTTPClient(transport: stub, configuration: .init(decoder: decoder))
        let event = try await client.send(Endpoint<Event>(host: "api.test", path: "/event"))
        #expect(event.at == Date(timeIntervalSince1970: 1_714_557_600))
    }

    @Test func decodingErrorsNameThePathAndQuoteTheBody() async throws {
        struct Page: Decodable, Sendable {
            struct Result: Decodable, Sendable { var title: String }
            var results: [Result]
        }
        let stub = StubTransport()
        stub.on(.get, "/page", .json(#"{"results": [{"title": "A"}, {"title": null}]}"#))
        let client = HTTPClient(transport: stub)
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Page>(host: "api.test", path: "/page"))
        }
        let failure = try #require(error?.decodingFailure)
        #expect(failure.codingPath == "results[1].title")
        #expect(failure.reason == "expected String, found null or nothing")
        #expect(
            error?.message
                == #"Could not decode Page from GET https://api.test/page at results[1].title: expected String, found null or nothing. Body: {"results": [{"title": "A"}, {"title": null}]}"#
        )
    }

    @Test func notJSONIsReportedWithTheParserReason() async throws {
        let stub = StubTransport()
        stub.on(.get, "/broken", .json(#"{"id": 1,"#))
        let error = await #expect(throws: RequestError.self) {
            try await HTTPClient(transport: stub).send(Endpoint<Movie>(host: "api.test", path: "/broken"))
        }
        let failure = try #require(error?.decodingFailure)
        #expect(failure.codingPath == "")
        #expect(
            failure.reason
                == "the body is not valid JSON: line 1, column 10: unexpected end of the text: the object opened at line 1, column 1 is not closed"
        )
    }

    @Test func lossyArraysSkipAndCountBadElements() async throws {
        struct Page: Decodable, Sendable { var results: LossyArray<Movie> }
        let stub = StubTransport()
        stub.on(
            .get,
            "/page",
            .json(
                #"{"results": [{"id": 1, "original_title": "A"}, {"id": "two"}, {"id": 3, "original_title": "C"}, 7]}"#
            )
        )
        let page = try await HTTPClient(transport: stub).send(
            Endpoint<Page>(host: "api.test", path: "/page").convertingFromSnakeCase()
        )
        #expect(page.results.map(\.id) == [1, 3])
        #expect(page.results.skipped.map(\.index) == [1, 3])
        #expect(page.results.skipped[0].reason.hasPrefix("expected Int:"))
        #expect(page.results.skipped[0].reason.hasSuffix("at results[1].id"))
    }

    @Test func voidEndpointsAcceptAnySuccess() async throws {
        let stub = StubTransport()
        stub.on(.delete, "/item", .status(.noContent))
        stub.on(.post, "/item", .json(#"{"ignored": true}"#, status: .accepted))
        let client = HTTPClient(transport: stub)
        try await client.send(Endpoint<Void>(method: .delete, host: "api.test", path: "/item"))
        try await client.send(Endpoint<Void>(method: .post, host: "api.test", path: "/item"))
        #expect(stub.requests.map(\.head.method) == [.delete, .post])
    }

    @Test func contentTypesAreMatchedByEssenceAndSuffix() async throws {
        let stub = StubTransport()
        stub.on(
            .get,
            "/problem",
            .text(#"{"id": 1, "original_title": "x"}"#, contentType: "application/problem+json; charset=utf-8")
        )
        stub.on(
            .get,
            "/itunes",
            .text(#"{"id": 2, "original_title": "y"}"#, contentType: "text/javascript; charset=utf-8")
        )
        stub.on(.get, "/xml", .text("<movie/>", contentType: "application/xml"))
        let client = HTTPClient(transport: stub)
        #expect(try await client.send(Endpoint<Movie>(host: "t", path: "/problem").convertingFromSnakeCase()).id == 1)
        #expect(try await client.send(Endpoint<Movie>(host: "t", path: "/itunes").convertingFromSnakeCase()).id == 2)
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Movie>(host: "t", path: "/xml"))
        }
        guard case .unexpectedContentType(let failure, _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(failure.contentType == "application/xml")
    }

    @Test func statusesMapToErrorCases() async throws {
        let stub = StubTransport()
        stub.on(.get, "/401", .text("no", status: .unauthorized))
        stub.on(.get, "/429", .text("slow down", status: .tooManyRequests))
        stub.on(.get, "/502", .text("bad gateway", status: .badGateway))
        stub.on(.get, "/304", .status(.notModified))
        let client = HTTPClient(transport: stub)
        var categories: [RequestError.Category] = []
        var tokens: [String] = []
        for path in ["/401", "/429", "/502", "/304"] {
            do {
                try await client.send(Endpoint<Void>(host: "t", path: path))
            } catch {
                categories.append(error.category)
                tokens.append(error.shortDescription)
            }
        }
        #expect(categories == [.clientError, .clientError, .serverError, .invalidResponse])
        #expect(tokens == ["http_401", "http_429", "http_502", "http_304"])
    }

    @Test(arguments: [
        (
            #"{"type":"about:blank","title":"Not Found","detail":"No book 42."}"#, "application/problem+json",
            "No book 42."
        ),
        (
            #"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#,
            "application/json;charset=utf-8", "The resource you requested could not be found."
        ),
        (
            #"{"errorMessage":"Invalid value(s) for key(s): [mediaType]","queryParameters":{}}"#, "text/javascript",
            "Invalid value(s) for key(s): [mediaType]"
        ),
        (#"{"error":"invalid_grant","error_description":"Token expired"}"#, "application/json", "Token expired"),
        (#"{"error":{"code":403,"message":"Quota exceeded"}}"#, "application/json", "Quota exceeded"),
        (#"  {"message":"rate limited"}"#, "", "rate limited"),
        (#"{"status":"down","since":3}"#, "application/json", #"{"status":"down","since":3}"#),
        (#"{"message":"x"}"#, "text/html", #"{"message":"x"}"#),
        (#"["message"]"#, "application/json", #"["message"]"#),
    ])
    func errorBodiesAreReducedToTheirMessage(body: String, contentType: String, expected: String) async throws {
        let stub = StubTransport()
        let headers: HTTPFields = contentType.isEmpty ? [:] : [.contentType: contentType]
        stub.on(.get, "/fail", StubResponse(status: .notFound, headers: headers, body: Data(body.utf8)))
        let client = HTTPClient(transport: stub)
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Endpoint<Void>(host: "t", path: "/fail"))
        }
        #expect(error?.httpFailure?.bodyExcerpt == expected)
    }

    @Test func transportFailuresPassThroughWithTheirCause() async throws {
        struct Cause: Error {}
        let stub = StubTransport()
        let summary = RequestSummary(method: "GET", url: "https://t/x")
        stub.on(
            .get,
            "/x",
            .failure(.transport(TransportFailure(.connectionLost, request: summary, detail: "reset", cause: Cause())))
        )
        let error = await #expect(throws: RequestError.self) {
            try await HTTPClient(transport: stub).send(Endpoint<Void>(host: "t", path: "/x"))
        }
        let failure = try #require(error?.transportFailure)
        #expect(failure.cause is Cause)
        #expect(
            error?.message
                == "The connection for GET https://t/x closed before the response was complete (reset); try again."
        )
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let stub = StubTransport()
        stub.on(.get, "/slow", StubResponse.json("{}").delayed(by: .seconds(30)))
        let client = HTTPClient(transport: stub)
        let task = Task { () async throws(RequestError) -> Data in
            try await client.send(Endpoint<Data>(host: "t", path: "/slow"))
        }
        while stub.requests.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        let result = await task.result
        #expect(result.endedCancelled, "got \(result)")
    }
}
