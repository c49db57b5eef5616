import CourierServerKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The app's JSON answers: values, problems (RFC 9457) and lines of a stream.
enum AppResponse {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// `value` as JSON; an encoding failure becomes a 500 problem.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        guard let data = try? encoder.encode(value) else {
            return problem(.internalServerError, "The answer could not be encoded.")
        }
        return Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// A problem document: `title` from the status, `detail` saying what happened and what to do.
    static func problem(_ status: HTTPResponse.Status, _ detail: String) -> Response {
        HTTPProblem(status, detail: detail).response
    }

    /// One line of a JSON Lines stream: `value` and a newline.
    static func line(_ value: some Encodable) -> ByteBuffer {
        var data = (try? encoder.encode(value)) ?? Data(#"{"error":"an entry could not be encoded"}"#.utf8)
        data.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: data)
    }

    /// One Server-Sent Event named `event` whose data is `value` as JSON (one line: JSON
    /// text never contains a raw newline).
    static func event(_ event: String, _ value: some Encodable) -> ByteBuffer {
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        var buffer = ByteBuffer(string: "event: \(event)\ndata: ")
        buffer.writeBytes(data)
        buffer.writeString("\n\n")
        return buffer
    }

    /// Headers of a JSON Lines stream the browser reads as it arrives.
    static let streamHeaders: HTTPFields = [
        .contentType: "application/x-ndjson", .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
    ]

    /// ``streamHeaders`` for a stream that stops when the browser leaves, which ends the
    /// connection after the response (see ``closingConnection(_:)``).
    static let closingStreamHeaders: HTTPFields = {
        var fields = streamHeaders
        fields[.connection] = "close"
        return fields
    }()

    /// `response`, saying that the connection ends after it. A route that watches for the
    /// browser leaving (`Request.untilClientLeaves`) stops reading the
    /// connection when it is done, and the server closes it after the response; a client that
    /// is not told may send its next request on it and lose it. (The app serves HTTP/1.1 only;
    /// over HTTP/2 the field is not allowed.)
    static func closingConnection(_ response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        return response
    }
}

extension Request {
    /// The query parameter `name`, if present.
    func parameter(_ name: String) -> String? {
        uri.queryParameters.get(name)
    }

    /// The body decoded from JSON, at most `limit` bytes.
    func decodedBody<Value: Decodable>(_ type: Value.Type, limit: Int = 16 << 10) async throws(AppInputError) -> Value {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch {
            throw AppInputError("The request body is larger than \(limit) bytes, or was cut off.")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(buffer.readableBytesView))
        } catch {
            throw AppInputError("The request body is not the JSON this endpoint takes.")
        }
    }
}

/// A request the app cannot act on, with what is wrong in it.
struct AppInputError: Error {
    let message: String
    init(_ message: String) { self.message = message }

    var response: Response { AppResponse.problem(.badRequest, message) }
}
