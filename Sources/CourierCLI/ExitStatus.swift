import Courier

/// The exit statuses every `courier` subcommand uses.
enum ExitStatus: Int32 {
    case success = 0
    case unexpected = 1
    case usage = 2
    case network = 3
    case clientError = 4
    case serverError = 5
    case invalidResponse = 6
    case nothingFound = 7

    /// The status for a request error.
    init(_ error: RequestError) {
        switch error.category {
        case .invalidRequest: self = .usage
        case .network: self = .network
        case .clientError: self = .clientError
        case .serverError: self = .serverError
        case .invalidResponse: self = .invalidResponse
        case .cancelled: self = .unexpected
        }
    }

    static let help = """
        Exit status: 0 ok, 1 unexpected failure, 2 usage (bad arguments or URL), 3 network \
        (DNS, refused, reset, TLS, timeout, refused cleartext HTTP), 4 HTTP 4xx, 5 HTTP 5xx, \
        6 invalid response (content type, decoding, too large, nothing at --pick), 7 nothing found \
        (a search without results, an unknown family member or TMDB id).
        """
}

/// A failure that ends a command with a message and an exit status.
struct CommandFailure: Error {
    var message: String
    var status: ExitStatus

    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    init(_ error: RequestError) {
        if case .insecureConnection(let request, let reason) = error {
            self.init(reason.refusal(of: request) + " --allow-http \(request.host).", status: ExitStatus(error))
        } else {
            self.init(error.message, status: ExitStatus(error))
        }
    }
}
