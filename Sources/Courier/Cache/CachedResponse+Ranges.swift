import Foundation
import HTTPTypes

extension CachedResponse {
    /// What a stored response can give a request, by the request's `Range` and `If-Range`
    /// (RFC 9110 §14.2, §13.1.5; RFC 9111 §3.4).
    enum RangeAnswer: Sendable, Equatable {
        /// The whole response: the request asks for no range, one the cache does not split,
        /// or its `If-Range` does not hold.
        case whole
        /// These bytes, as a 206.
        case part(Range<Int>)
        /// A 416: the range selects no byte of the representation.
        case unsatisfiable
        /// The stored parts do not hold what the request needs.
        case notStored
    }

    /// The length of the complete representation.
    var completeLength: Int { partial?.completeLength ?? body.count }

    /// What this stored response can give `request`. Ranges apply to GET requests whose answer
    /// would otherwise be a 200; an incomplete response answers only ranges it holds.
    func rangeAnswer(for request: HTTPRequest) -> RangeAnswer {
        let whole: RangeAnswer = partial == nil ? .whole : .notStored
        guard request.method == .get, partial != nil || head.status == .ok,
            let field = request.headerFields[.range], let ranges = ByteRangeRequest(field),
            CacheValidation.ifRangeHolds(in: request, for: head)
        else { return whole }
        switch ranges.selection(length: completeLength) {
        case .whole: return whole
        case .unsatisfiable: return .unsatisfiable
        case .bytes(let range): return (partial?.covers(range) ?? true) ? .part(range) : .notStored
        }
    }

    /// The stored response as `answer` gives it: cut to a part with its `Content-Range`, or
    /// a 416 naming the length.
    func response(now: Date, outcome: CacheOutcome, answer: RangeAnswer) -> RawResponse {
        var response = response(now: now, outcome: outcome)
        switch answer {
        case .part(let range):
            let start = body.startIndex
            let bytes =
                partial.map { $0.bytes(range, in: body) ?? Data() }
                ?? Data(body[(start + range.lowerBound)..<(start + range.upperBound)])
            response.head.status = .partialContent
            response.head.headerFields[.contentRange] = ContentRange(range, of: completeLength).description
            response.head.headerFields[.contentLength] = String(range.count)
            response.body = bytes
        case .unsatisfiable:
            response.head.status = .rangeNotSatisfiable
            response.head.headerFields[.contentRange] = "bytes */\(completeLength)"
            response.head.headerFields[.contentLength] = "0"
            response.body = Data()
        case .whole, .notStored:
            break
        }
        return response
    }
}
