extension RequestError {
    /// The response that failed, when the server answered: 401, other 4xx, 5xx, an unusable
    /// status or an unexpected content type.
    ///
    /// ```swift
    /// if error.httpFailure?.status == 404 { showNotFound() }
    /// ```
    public var httpFailure: HTTPFailure? {
        switch self {
        case .unauthorized(let failure), .clientError(let failure), .serverError(let failure),
            .unexpectedStatus(let failure), .unexpectedContentType(let failure, _):
            failure
        default:
            nil
        }
    }

    /// What broke, when the connection failed.
    public var transportFailure: TransportFailure? {
        if case .transport(let failure) = self { return failure }
        return nil
    }

    /// Where and why, when the body did not decode.
    public var decodingFailure: DecodingFailure? {
        if case .decoding(let failure) = self { return failure }
        return nil
    }
}
