/// An error answer in the problem-details format of RFC 9457 (`application/problem+json`): what
/// Courier's servers send, and what a client can decode from a service that sends them.
///
/// ```json
/// {"type": "about:blank", "title": "Bad Request", "status": 400,
///  "detail": "limit must be a whole number from 0 to 1000, not '5000'.",
///  "errors": [{"parameter": "limit", "detail": "must be a whole number from 0 to 1000"}]}
/// ```
public struct ProblemDetails: Codable, Sendable, Hashable {
    /// One invalid request parameter.
    public struct InvalidParameter: Codable, Sendable, Hashable {
        /// The query parameter's name.
        public var parameter: String
        /// What is wrong with it.
        public var detail: String

        /// Creates a description of an invalid parameter.
        public init(parameter: String, detail: String) {
            self.parameter = parameter
            self.detail = detail
        }
    }

    /// The media type of a problem-details body.
    public static let mediaType = "application/problem+json"

    /// A URI naming the kind of problem; "about:blank" when the status says it all.
    public var type: String
    /// A short summary of the kind of problem: the status's reason phrase for "about:blank".
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What went wrong with this request, and what to do.
    public var detail: String?
    /// The parameters that were wrong, for a 400.
    public var errors: [InvalidParameter]?

    /// Creates a problem description.
    public init(
        type: String = "about:blank",
        title: String,
        status: Int,
        detail: String?,
        errors: [InvalidParameter]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
    }
}
