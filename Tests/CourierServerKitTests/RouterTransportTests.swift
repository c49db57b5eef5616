import CompressNIO
import Courier
import CourierTestServer
import CourierTestTraits
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The test kit's in-process transport hands the client what a real transport would: every
/// field sent, bodies decoded as the AsyncHTTPClient transport decodes them, failures alike.
@Suite(.loadLimited)
struct RouterTransportTests {
    static let text = String(repeating: "courier ", count: 512)

    static func withClient(_ body: @Sendable (HTTPClient) async throws -> Void) async throws {
        let router = Router()
        router.get("/fields") { request, _ in
            String(request.headers[values: HTTPField.Name("X-Twice")!].count)
        }
        router.get("/gzip") { request, _ in
            var plain = ByteBuffer(string: Self.text)
            var coded = try plain.compress(with: .gzip())
            if request.uri.queryParameters.get("cut") != nil {
                coded = coded.getSlice(at: 0, length: coded.readableBytes / 2)!
            }
            return Response(
                status: .ok,
                headers: [.contentEncoding: "gzip", .contentType: "text/plain"],
                body: ResponseBody(byteBuffer: coded)
            )
        }
        try await Application(router: router).test(.router) { client in
            try await body(
                HTTPClient(transport: RouterTransport(client), configuration: .init(baseURL: RouterTransport.origin))
            )
        }
    }

    @Test func aFieldSentTwiceArrivesTwice() async throws {
        try await Self.withClient { client in
            var fields = HTTPFields()
            fields.append(HTTPField(name: HTTPField.Name("X-Twice")!, value: "1"))
            fields.append(HTTPField(name: HTTPField.Name("X-Twice")!, value: "2"))
            let endpoint = Endpoint<Data>(path: "/fields", headers: fields)
            let count = try await client.send(endpoint)
            #expect(String(decoding: count, as: UTF8.self) == "2")
        }
    }

    @Test func bodiesAreDecodedAndACutOneFails() async throws {
        try await Self.withClient { client in
            let whole = try await client.response(for: Endpoint<Data>(path: "/gzip"))
            #expect(String(decoding: whole.value, as: UTF8.self) == Self.text)
            #expect(whole.head.headerFields[.contentEncoding] == nil)
            let error = await #expect(throws: RequestError.self) {
                try await client.send(Endpoint<Data>(path: "/gzip", query: [URLQueryItem(name: "cut", value: "1")]))
            }
            #expect(error?.transportFailure?.kind == .undecodableBody)
        }
    }
}
