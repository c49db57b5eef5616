import CourierCassettes
import CourierReplay
import CourierTestTraits
import Foundation
import HTTPTypes
import Hummingbird
import Testing

/// A recording replays on any host and port, links included, and answers a cache's
/// revalidation as the recorded server would (issue 32).
@Suite(.loadLimited)
struct ReplayAnywhereTests {
    static let cassette = Cassette(interactions: [
        .init(
            request: .init(method: "GET", url: "http://127.0.0.1:9400/search?term=king"),
            response: .init(
                status: 200,
                headers: [
                    ["Content-Type", "text/javascript"], ["ETag", "W/\"s1\""], ["Cache-Control", "max-age=60"],
                    ["Link", "<http://127.0.0.1:9400/search?term=king&page=2>; rel=next"],
                ],
                body: .init(Data(#"{"artworkUrl60":"http:\/\/127.0.0.1:9400\/artwork\/1.png"}"#.utf8))
            )
        ),
        .init(
            request: .init(method: "GET", url: "http://127.0.0.1:9400/feed"),
            response: .init(
                status: 200,
                headers: [["Last-Modified", "Tue, 03 Nov 2026 10:00:00 GMT"], ["Content-Type", "text/plain"]],
                body: .init(Data("feed".utf8))
            )
        ),
        .init(
            request: .init(method: "POST", url: "http://127.0.0.1:9400/search?term=king"),
            response: .init(status: 200)
        ),
    ])

    static func answer(
        _ method: HTTPRequest.Method = .get,
        _ path: String,
        host: String = "localhost:18700",
        fields: HTTPFields = [:]
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        let head = HTTPRequest(method: method, scheme: "http", authority: host, path: path, headerFields: fields)
        let response = try await ReplayServer(cassette).respond(
            to: Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        )
        let body = CollectingWriter()
        try await response.body.write(body)
        return (response.status, response.headers, String(buffer: body.collected.buffer))
    }

    @Test func linksInBodiesAndHeadersNameTheReplaysOwnAddress() async throws {
        let search = try await Self.answer(.get, "/search?term=king")
        #expect(search.status == .ok)
        #expect(search.body == #"{"artworkUrl60":"http:\/\/localhost:18700\/artwork\/1.png"}"#)
        #expect(search.headers[HTTPField.Name("Link")!] == "<http://localhost:18700/search?term=king&page=2>; rel=next")
        let other = try await Self.answer(.get, "/search?term=king", host: "[::1]:9")
        #expect(other.body.contains(#"http:\/\/[::1]:9\/artwork"#))
    }

    @Test(arguments: ["W/\"s1\"", "\"s1\"", "\"x\", W/\"s1\"", "*"])
    func aMatchingEntityTagIsNotModified(condition: String) async throws {
        let answer = try await Self.answer(.get, "/search?term=king", fields: [.ifNoneMatch: condition])
        #expect(answer.status == .notModified)
        #expect(answer.body.isEmpty)
        #expect(answer.headers[.eTag] == "W/\"s1\"")
        #expect(answer.headers[.cacheControl] == "max-age=60")
        #expect(answer.headers[.contentType] == nil)
    }

    /// `*` is any current representation: a recorded 200 without a tag is not modified either.
    @Test func aStarIsNotModifiedWithoutATag() async throws {
        let answer = try await Self.answer(.get, "/feed", fields: [.ifNoneMatch: "*"])
        #expect(answer.status == .notModified)
    }

    @Test func anotherEntityTagGetsTheWholeResponse() async throws {
        let answer = try await Self.answer(.get, "/search?term=king", fields: [.ifNoneMatch: "\"s2\""])
        #expect(answer.status == .ok)
        #expect(answer.body.hasPrefix("{"))
    }

    @Test func lastModifiedIsComparedWithoutAnEntityTag() async throws {
        let later = try await Self.answer(.get, "/feed", fields: [.ifModifiedSince: "Wed, 04 Nov 2026 10:00:00 GMT"])
        #expect(later.status == .notModified)
        #expect(later.headers[.lastModified] == "Tue, 03 Nov 2026 10:00:00 GMT")
        let earlier = try await Self.answer(.get, "/feed", fields: [.ifModifiedSince: "Mon, 02 Nov 2026 10:00:00 GMT"])
        #expect(earlier.status == .ok)
        let invalid = try await Self.answer(.get, "/feed", fields: [.ifModifiedSince: "yesterday"])
        #expect(invalid.status == .ok)
        var twice = HTTPFields()
        twice.append(HTTPField(name: .ifModifiedSince, value: "Wed, 04 Nov 2026 10:00:00 GMT"))
        twice.append(HTTPField(name: .ifModifiedSince, value: "Wed, 04 Nov 2026 10:00:00 GMT"))
        #expect(try await Self.answer(.get, "/feed", fields: twice).status == .ok, "two dates are no date")
        // If-None-Match wins: the feed has no tag, so it is sent whole.
        let both = try await Self.answer(
            .get,
            "/feed",
            fields: [.ifNoneMatch: "\"f\"", .ifModifiedSince: "Wed, 04 Nov 2026 10:00:00 GMT"]
        )
        #expect(both.status == .ok)
    }

    @Test func onlyGetAndHeadAreConditional() async throws {
        let post = try await Self.answer(.post, "/search?term=king", fields: [.ifNoneMatch: "*"])
        #expect(post.status == .ok)
    }
}

/// Collects a response body, written in one task.
private struct CollectingWriter: ResponseBodyWriter {
    final class Collected {
        var buffer = ByteBuffer()
    }
    let collected = Collected()

    mutating func write(_ part: ByteBuffer) async throws {
        var part = part
        collected.buffer.writeBuffer(&part)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
