import Courier
import CourierServerKit
import HTTPTypes
import LibrarySearch

extension HTTPProblem {
    /// A 400 naming the parameters that are wrong and what each must be.
    static func badParameters(_ errors: [ProblemDetails.InvalidParameter]) -> HTTPProblem {
        let detail = errors.map { "\($0.parameter) \($0.detail)" }.joined(separator: "; ") + "."
        return HTTPProblem(.badRequest, detail: detail, errors: errors)
    }

    /// A 503 while the store's data cannot be reached: the client may retry in a second.
    static func unavailable(_ error: LibraryStoreError) -> HTTPProblem {
        HTTPProblem(
            .serviceUnavailable,
            detail: "The library's database cannot be reached; this replica reconnects by itself. Try again shortly.",
            headers: [.retryAfter: "1"]
        )
    }
}
