import Foundation
import HTTPTypes

extension HTTPClient {
    /// Judges the status and content type, then decodes the body with the endpoint's decoder.
    ///
    /// The request's redacted summary is computed only for an error: it costs string work that
    /// a successful request does not need.
    func decode<Value>(
        _ response: RawResponse,
        for endpoint: Endpoint<Value>,
        request prepared: PreparedRequest
    ) throws(RequestError) -> Value {
        guard (200..<300).contains(response.status) else {
            throw Self.failure(for: response, request: prepared.summary)
        }
        if let accepted = endpoint.acceptedContentTypes, let contentType = response.head.headerFields[.contentType],
            !MediaType.matches(contentType, anyOf: accepted)
        {
            throw .unexpectedContentType(HTTPFailure(response, request: prepared.summary), expected: accepted)
        }
        do {
            return try endpoint.decode(response, endpoint.decoder ?? configuration.decoder)
        } catch let error as RequestError {
            throw error
        } catch {
            throw .decoding(
                DecodingFailure(
                    error,
                    type: String(describing: Value.self),
                    request: prepared.summary,
                    body: response.body,
                    contentType: response.head.headerFields[.contentType]
                )
            )
        }
    }

    /// The error for a response whose status is not 2xx.
    static func failure(for response: RawResponse, request: RequestSummary) -> RequestError {
        let failure = HTTPFailure(response, request: request)
        switch response.status {
        case 401: return .unauthorized(failure)
        case 400..<500: return .clientError(failure)
        case 500..<600: return .serverError(failure)
        default: return .unexpectedStatus(failure)
        }
    }
}

extension HTTPFailure {
    init(_ response: RawResponse, request: RequestSummary, now: Date = Date()) {
        let contentType = response.head.headerFields[.contentType]
        self.init(
            request: request,
            status: response.status,
            reason: response.head.status.reasonPhrase,
            contentType: contentType,
            retryAfter: response.head.headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: now) },
            bodyExcerpt: Excerpt.ofErrorBody(response.body, contentType: contentType),
            answeredURL: response.url.isEmpty ? nil : Redaction.redactingURL(response.url)
        )
    }
}

extension DecodingFailure {
    init(_ error: any Error, type: String, request: RequestSummary, body: Data, contentType: String?) {
        var (codingPath, reason) = Self.explain(error)
        if case .dataCorrupted(let context) = error as? DecodingError, context.codingPath.isEmpty {
            // The decoder does not say where the text breaks; the syntax check does.
            do throws(JSONSyntaxError) {
                try JSONSyntax.validate(Array(body))
            } catch {
                reason = "the body is not valid JSON: \(error)"
            }
        }
        let bodyExcerpt = Excerpt.of(body, contentType: contentType)
        self.init(request: request, type: type, codingPath: codingPath, reason: reason, bodyExcerpt: bodyExcerpt)
    }

    /// Where a decoding error happened (`results[3].title`) and what was wrong, for people.
    static func explain(_ error: any Error) -> (codingPath: String, reason: String) {
        switch error as? DecodingError {
        case .typeMismatch(let expected, let context):
            return (render(context.codingPath), "expected \(expected): \(context.debugDescription)")
        case .valueNotFound(let expected, let context):
            return (render(context.codingPath), "expected \(expected), found null or nothing")
        case .keyNotFound(let key, let context):
            return (render(context.codingPath), "the key '\(key.stringValue)' is missing")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return (
                render(context.codingPath),
                underlying.map { "\(context.debugDescription) \($0)" } ?? context.debugDescription
            )
        case .none:
            return ("", String(describing: error))
        @unknown default:
            return ("", String(describing: error))
        }
    }

    /// `results[3].title`.
    static func render(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return result
    }
}
