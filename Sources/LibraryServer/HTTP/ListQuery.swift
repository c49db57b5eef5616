import Courier
import CourierServerKit
import Foundation
import LibraryKit

/// The parameters of a search: the prefix, and which page of results.
struct ListQuery: Sendable, Equatable {
    var prefix: String = ""
    var limit: Int = LibraryService.defaultLimit
    var offset: Int = 0

    /// Reads `prefixName` (`q`, `country`), `limit` and `offset` from a URL's query string,
    /// decoded as HTML forms send it (`+` is a space); other parameters are ignored.
    ///
    /// - Throws: `HTTPProblem` (400) listing every parameter that is wrong.
    static func parse(_ query: String?, prefixName: String) throws(HTTPProblem) -> ListQuery {
        var result = ListQuery()
        var errors: [ProblemDetails.InvalidParameter] = []
        var seen: (prefix: Bool, limit: Bool, offset: Bool) = (false, false, false)
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else {
                errors.append(.init(parameter: String(parts[0]), detail: "is not valid percent-encoded UTF-8"))
                continue
            }
            guard name == prefixName || name == "limit" || name == "offset" else { continue }
            let rawValue = parts.count > 1 ? parts[1] : ""
            let isRepeated: Bool
            switch name {
            case "limit": (isRepeated, seen.limit) = (seen.limit, true)
            case "offset": (isRepeated, seen.offset) = (seen.offset, true)
            default: (isRepeated, seen.prefix) = (seen.prefix, true)
            }
            guard !isRepeated else {
                errors.append(.init(parameter: name, detail: "is given more than once: give it once"))
                continue
            }
            guard let value = decode(rawValue) else {
                errors.append(.init(parameter: name, detail: "is not valid percent-encoded UTF-8"))
                continue
            }
            switch name {
            case "limit":
                if let limit = Int(value), (0...LibraryService.maximumLimit).contains(limit) {
                    result.limit = limit
                } else {
                    errors.append(
                        .init(
                            parameter: name,
                            detail: "must be a whole number from 0 to \(LibraryService.maximumLimit), not '\(value)'"
                        )
                    )
                }
            case "offset":
                if let offset = Int(value), offset >= 0 {
                    result.offset = offset
                } else if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
                {
                    result.offset = .max  // Past any data set's end, however many digits: an empty page.
                } else {
                    errors.append(.init(parameter: name, detail: "must be a whole number, 0 or more, not '\(value)'"))
                }
            default:
                result.prefix = value
            }
        }
        guard errors.isEmpty else { throw HTTPProblem.badParameters(errors) }
        return result
    }

    /// Form decoding: `+` is a space, then percent-decoding; `nil` for a bad escape or bytes
    /// that are not UTF-8.
    private static func decode(_ component: Substring) -> String? {
        guard component.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(component)
        }
        return component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
