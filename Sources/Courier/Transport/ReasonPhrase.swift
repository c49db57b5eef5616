import HTTPTypes

/// The standard reason phrase of a status code, for transports that report only the code.
public enum ReasonPhrase {
    private static let known: [Int: String] = {
        let statuses: [HTTPResponse.Status] = [
            .continue, .switchingProtocols, .earlyHints, .ok, .created, .accepted, .nonAuthoritativeInformation,
            .noContent, .resetContent, .partialContent, .multipleChoices, .movedPermanently, .found, .seeOther,
            .notModified, .temporaryRedirect, .permanentRedirect, .badRequest, .unauthorized, .forbidden, .notFound,
            .methodNotAllowed, .notAcceptable, .proxyAuthenticationRequired, .requestTimeout, .conflict, .gone,
            .lengthRequired, .preconditionFailed, .contentTooLarge, .uriTooLong, .unsupportedMediaType,
            .rangeNotSatisfiable, .expectationFailed, .misdirectedRequest, .unprocessableContent, .tooEarly,
            .upgradeRequired, .preconditionRequired, .tooManyRequests, .requestHeaderFieldsTooLarge,
            .unavailableForLegalReasons, .internalServerError, .notImplemented, .badGateway, .serviceUnavailable,
            .gatewayTimeout, .httpVersionNotSupported, .networkAuthenticationRequired,
        ]
        return Dictionary(statuses.map { ($0.code, $0.reasonPhrase) }, uniquingKeysWith: { first, _ in first })
    }()

    /// `Not Found` for 404; an empty string for codes without a standard phrase.
    public static func standard(for code: Int) -> String { known[code] ?? "" }
}
