import Foundation

/// Everything that can go wrong when sending a request, as one typed error.
///
/// Every case carries what is needed to say what failed, on which request, and what to do
/// next; ``message`` renders that as one line for a person, ``shortDescription`` as a bounded
/// token for exit codes, metrics and logs.
///
/// ```swift
/// do throws(RequestError) {
///     let movie = try await client.send(MovieDB.movie(550).details)
///     show(movie)
/// } catch .cancelled {
///     // superseded or abandoned: not a failure, show nothing
/// } catch {
///     print(error.message)
/// }
/// ```
///
/// URLs inside the cases are already redacted: secrets in query items never appear in
/// messages.
public enum RequestError: Error, Sendable {
    /// The endpoint and base URL do not make a valid URL.
    case invalidURL(String, reason: String)
    /// The request body could not be encoded.
    case invalidBody(RequestSummary, reason: String)
    /// A request the ``TransportSecurityPolicy`` refuses before any connection: cleartext
    /// `http://` to a host it does not allow, or a redirect from the internet to this machine or
    /// the local network (the reason says which).
    case insecureConnection(RequestSummary, reason: InsecureConnectionReason = .cleartext)
    /// The connection could not be made or broke before a complete response arrived. This is
    /// also where no response, or one that is not HTTP, goes ("no or unknown response"):
    /// ``TransportFailure/Kind/connectionLost`` when the connection ended before a whole head,
    /// ``TransportFailure/Kind/other`` when something that is not HTTP answered.
    case transport(TransportFailure)
    /// The server answered 401 Unauthorized.
    case unauthorized(HTTPFailure)
    /// An ``Authenticator`` could not renew its credential for the request.
    case authentication(AuthenticationFailure)
    /// The server answered with another 4xx status.
    case clientError(HTTPFailure)
    /// The server answered with a 5xx status.
    case serverError(HTTPFailure)
    /// The server answered with a status the request cannot use (1xx, or a 3xx not followed).
    case unexpectedStatus(HTTPFailure)
    /// The response's `Content-Type` is not one the endpoint can decode (an HTML error page
    /// where JSON was expected).
    case unexpectedContentType(HTTPFailure, expected: [String])
    /// The body did not decode into the endpoint's response type.
    case decoding(DecodingFailure)
    /// The response body is larger than the client's limit.
    case bodyTooLarge(RequestSummary, limit: Int)
    /// A streamed body broke a limit set for reading it (a line or an event too long), or was
    /// read twice.
    case stream(StreamFailure)
    /// A file the request reads or writes (a download's destination) could not be used.
    case fileSystem(path: String, reason: String)
    /// The request was cancelled: its task was cancelled or a newer request superseded it.
    ///
    /// This is not a failure to show to a person.
    case cancelled
}

/// Why ``RequestError/insecureConnection(_:reason:)`` refused a request.
public enum InsecureConnectionReason: Sendable, Hashable {
    /// Cleartext `http://` to a host the policy does not allow.
    case cleartext
    /// A redirect from `host` (on the internet, or on the local network) to an address closer to
    /// this machine: loopback or the local network, as browsers' Private Network Access refuses.
    case privateNetworkRedirect(from: String)
    /// A redirect (307, 308, or 301/302 of a method other than POST) from `host` to another
    /// origin that would send the request's body on: a body may hold credentials (a password
    /// field), and credentials stay with the origin they were given to.
    case bodyToAnotherOrigin(from: String)
    /// A redirect from `https://` on `host` to cleartext `http://`: the answer to a request that
    /// began encrypted would come unencrypted, open to forgery on the way.
    case downgradeRedirect(from: String)

    /// What was refused and why, ending with the words that introduce how to allow the host,
    /// for a caller to complete with its own way of naming it (an API, a command-line flag):
    /// "Refused cleartext HTTP to example.com (GET http://example.com/): use https://, or allow
    /// this host explicitly with".
    ///
    /// - Parameter request: The refused request.
    /// - Returns: The message without its last words.
    public func refusal(of request: RequestSummary) -> String {
        switch self {
        case .cleartext:
            "Refused cleartext HTTP to \(request.host) (\(request)): use https://, or allow this host explicitly with"
        case .privateNetworkRedirect(let origin):
            "Refused a redirect from \(origin) to \(request.host) (\(request)): a server farther away may not "
                + "send requests to this machine or the local network; if you trust it, allow the host explicitly with"
        case .bodyToAnotherOrigin(let origin):
            "Refused to send a request body on from \(origin) to another origin (\(request)): a body may hold "
                + "credentials, which stay with the origin they were given to; if you trust it, allow the host explicitly with"
        case .downgradeRedirect(let origin):
            "Refused a redirect from https://\(origin) to cleartext \(request): an answer asked for over https:// is "
                + "not taken unencrypted; if you trust the host, allow it explicitly with"
        }
    }
}

/// The method and redacted URL of a request, for messages and logs.
public struct RequestSummary: Sendable, Hashable, CustomStringConvertible {
    /// The request method, such as `GET`.
    public var method: String
    /// The request URL with secrets in its query replaced by `REDACTED`.
    public var url: String

    /// Creates a summary; `url` should already be redacted.
    public init(method: String, url: String) {
        self.method = method
        self.url = url
    }

    /// The host part of ``url``, or an empty string.
    public var host: String { URLComponents(string: url)?.encodedHost ?? "" }

    /// The same text as the message, for string interpolation and logs.
    public var description: String { "\(method) \(url)" }
}

/// A response whose status the caller treats as a failure.
public struct HTTPFailure: Sendable, CustomStringConvertible {
    /// The request that got this response.
    public var request: RequestSummary
    /// The URL that answered, after redirects (secrets in its query redacted); the request's
    /// URL when there were none.
    public var answeredURL: String
    /// The response status code.
    public var status: Int
    /// The status reason phrase, such as `Not Found`.
    public var reason: String
    /// The response's `Content-Type`, if any.
    public var contentType: String?
    /// The `Retry-After` delay the server asked for, if any.
    public var retryAfter: Duration?
    /// The start of the body as text (at most 200 characters, whitespace collapsed).
    public var bodyExcerpt: String

    /// Creates a failure description.
    public init(
        request: RequestSummary,
        status: Int,
        reason: String,
        contentType: String? = nil,
        retryAfter: Duration? = nil,
        bodyExcerpt: String = "",
        answeredURL: String? = nil
    ) {
        self.request = request
        self.answeredURL = answeredURL ?? request.url
        self.status = status
        self.reason = reason
        self.contentType = contentType
        self.retryAfter = retryAfter
        self.bodyExcerpt = bodyExcerpt
    }

    /// `404 Not Found`.
    public var statusLine: String { reason.isEmpty ? "\(status)" : "\(status) \(reason)" }

    /// The same text as the message, for string interpolation and logs.
    public var description: String {
        "\(request) returned \(statusLine)" + RequestError.serverSaid(self)
    }
}

/// Why a connection failed, with its underlying cause.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The host name did not resolve.
        case hostNotFound
        /// Nothing listens at the host and port.
        case connectionRefused
        /// The connection was reset or closed before the response was complete.
        case connectionLost
        /// The TLS handshake or certificate verification failed.
        case tls
        /// The connect or total timeout passed.
        case timedOut
        /// More redirects than the client's limit.
        case tooManyRedirects
        /// The body's content coding (gzip, deflate) could not be undone: the compressed data
        /// was corrupt, cut short, or followed by stray bytes.
        case undecodableBody
        /// The proxy could not be reached, or refused to open a tunnel (`https`) to the
        /// origin, asking for credentials or not. (For plain `http` the proxy's answer is the
        /// response.)
        case proxy
        /// Anything else the transport reported.
        case other
    }

    /// The class of failure.
    public var kind: Kind
    /// The request that failed.
    public var request: RequestSummary
    /// What the transport said, for people.
    public var detail: String
    /// The transport's own error, when there is one.
    public var cause: (any Error)?

    /// Creates a transport failure.
    public init(_ kind: Kind, request: RequestSummary, detail: String = "", cause: (any Error)? = nil) {
        self.kind = kind
        self.request = request
        self.detail = detail
        self.cause = cause
    }

    /// The same text as the message, for string interpolation and logs.
    public var description: String { RequestError.transport(self).message }

    /// The failure of `request` reaching its total timeout, for transports to throw.
    public static func timedOut(_ request: PreparedRequest) -> TransportFailure {
        let detail = request.timeout.map { "after \($0.secondsDescription)" } ?? ""
        return TransportFailure(.timedOut, request: request.summary, detail: detail)
    }
}

/// Why an ``Authenticator`` could not renew its credential: its `refresh` threw something
/// other than a ``RequestError`` (which passes through as it is).
public struct AuthenticationFailure: Error, Sendable, CustomStringConvertible {
    /// The request that needed the credential.
    public var request: RequestSummary
    /// What `refresh` threw, for people.
    public var reason: String
    /// What `refresh` threw.
    public var cause: (any Error)?

    /// Creates an authentication failure.
    public init(request: RequestSummary, reason: String, cause: (any Error)? = nil) {
        self.request = request
        self.reason = reason
        self.cause = cause
    }

    /// The same text as the message, for string interpolation and logs.
    public var description: String { RequestError.authentication(self).message }
}

/// A body that did not decode, with where and why.
public struct DecodingFailure: Sendable, CustomStringConvertible {
    /// The request whose response failed to decode.
    public var request: RequestSummary
    /// The type that was being decoded.
    public var type: String
    /// The coding path to the failing value, such as `results[3].title`; empty for the root.
    public var codingPath: String
    /// What was wrong, such as `expected String, found null`.
    public var reason: String
    /// The start of the body as text.
    public var bodyExcerpt: String

    /// Creates a decoding failure.
    public init(request: RequestSummary, type: String, codingPath: String, reason: String, bodyExcerpt: String) {
        self.request = request
        self.type = type
        self.codingPath = codingPath
        self.reason = reason
        self.bodyExcerpt = bodyExcerpt
    }

    /// The same text as the message, for string interpolation and logs.
    public var description: String { RequestError.decoding(self).message }
}

/// Why a streamed body could not be read as asked.
public struct StreamFailure: Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A line was longer than the given maximum, in bytes.
        case lineTooLong(limit: Int)
        /// A Server-Sent Event's data was longer than the given maximum, in bytes.
        case eventTooLarge(limit: Int)
        /// The body was iterated a second time; a streamed body can be read once.
        case readTwice
    }

    /// What went wrong.
    public var kind: Kind
    /// The request whose body it was.
    public var request: RequestSummary
    /// The line of the body where it happened (1 for the first), when lines were being read.
    public var line: Int?

    /// Creates a stream failure.
    public init(_ kind: Kind, request: RequestSummary, line: Int? = nil) {
        self.kind = kind
        self.request = request
        self.line = line
    }

    /// The same text as the message, for string interpolation and logs.
    public var description: String { RequestError.stream(self).message }
}
