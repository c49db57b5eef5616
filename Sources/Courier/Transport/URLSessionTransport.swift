import HTTPTypes
import Synchronization

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A transport on `URLSession`, for Apple platforms and for Linux programs that prefer
/// Foundation's networking.
///
/// It does not follow redirects itself (``HTTPClient`` does, the same way for every
/// transport), enforces the total timeout and response-size limit of each request, and cancels
/// the `URLSessionTask` when the calling task is cancelled. Call ``invalidate()`` when done:
/// a session keeps its delegate until then.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate
    /// The longest timeout handed to Foundation, in seconds (a year).
    fileprivate static let longestTimeout: TimeInterval = 365 * 86_400

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: The session configuration; `.ephemeral` by default. The
    ///   transport uses a copy whose `urlCache` is switched off: caching belongs to the client,
    ///   where it follows the same rules on every platform.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Cancels outstanding tasks and releases the session.
    public func invalidate() {
        session.invalidateAndCancel()
    }

    // MARK: - Sending

    /// Sends the request; see ``HTTPTransport/send(_:)``.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        guard let url = URL(string: request.url) else {
            throw .invalidURL(request.summary.url, reason: "Foundation cannot parse it")
        }
        if Task.isCancelled { throw .cancelled }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.head.method.rawValue
        for field in request.head.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = request.body
        if let timeout = request.timeout {
            // FoundationNetworking turns the interval into whole milliseconds and traps past
            // Int.max: a year is as good as for ever for one request.
            urlRequest.timeoutInterval = min(max(0.001, timeout.seconds), Self.longestTimeout)
        }

        let task = session.dataTask(with: urlRequest)
        let delegate = delegate
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.start(task, request: request, continuation: continuation)
                }
            } onCancel: {
                task.cancel()
            }
        } catch let error as RequestError {
            throw error
        } catch {
            throw .transport(TransportFailure(.other, request: request.summary, detail: "\(error)", cause: error))
        }
    }
}

/// Collects each task's response and bytes, and finishes its continuation exactly once.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Exchange {
        let request: PreparedRequest
        let continuation: CheckedContinuation<RawResponse, any Error>
        var response: HTTPURLResponse?
        var body = Data()
        /// Set when this side stopped the task, for a reason the cancellation error would hide.
        var failure: RequestError?
        var timer: Task<Void, Never>?
    }

    private let exchanges = Mutex<[Int: Exchange]>([:])

    func start(
        _ task: URLSessionDataTask,
        request: PreparedRequest,
        continuation: CheckedContinuation<RawResponse, any Error>
    ) {
        var exchange = Exchange(request: request, continuation: continuation)
        if let timeout = request.timeout.map({ min($0, .seconds(URLSessionTransport.longestTimeout)) }) {
            let failure = RequestError.transport(.timedOut(request))
            // URLSession's own timeout is an idle timeout; this one bounds the whole exchange.
            exchange.timer = Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.stop(task, because: failure)
            }
        }
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
        task.resume()
    }

    private func stop(_ task: URLSessionTask, because failure: RequestError) {
        exchanges.withLock { exchanges in
            if exchanges[task.taskIdentifier]?.failure == nil { exchanges[task.taskIdentifier]?.failure = failure }
        }
        task.cancel()
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = exchanges.withLock { exchanges -> RequestError? in
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return nil }
            exchange.response = response as? HTTPURLResponse
            exchanges[dataTask.taskIdentifier] = exchange
            let limit = exchange.request.maxResponseSize
            return response.expectedContentLength > limit ? .bodyTooLarge(exchange.request.summary, limit: limit) : nil
        }
        if let tooLarge {
            stop(dataTask, because: tooLarge)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = exchanges.withLock { exchanges -> RequestError? in
            guard var exchange = exchanges[dataTask.taskIdentifier], exchange.failure == nil else { return nil }
            let limit = exchange.request.maxResponseSize
            guard exchange.body.count + data.count <= limit else {
                return .bodyTooLarge(exchange.request.summary, limit: limit)
            }
            exchange.body.append(data)
            exchanges[dataTask.taskIdentifier] = exchange
            return nil
        }
        if let tooLarge { stop(dataTask, because: tooLarge) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // HTTPClient follows redirects, checking the security policy on every hop.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        exchange.timer?.cancel()
        if let failure = exchange.failure {
            exchange.continuation.resume(throwing: failure)
        } else if let error {
            exchange.continuation.resume(
                throwing: Self.requestError(for: error, request: exchange.request, afterHead: exchange.response != nil)
            )
        } else if let response = exchange.response {
            exchange.continuation.resume(
                returning: RawResponse(head: Self.head(of: response), body: exchange.body, url: exchange.request.url)
            )
        } else {
            exchange.continuation.resume(
                throwing: RequestError.transport(
                    TransportFailure(.other, request: exchange.request.summary, detail: "no HTTP response")
                )
            )
        }
    }

    // MARK: - Conversions

    private static func head(of response: HTTPURLResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in response.allHeaderFields {
            guard let name = (name as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else {
                continue
            }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(
            status: .init(code: response.statusCode, reasonPhrase: ReasonPhrase.standard(for: response.statusCode)),
            headerFields: fields
        )
    }

    /// Maps Foundation's error; `afterHead` tells that the response had begun, so that a failure
    /// Foundation reports vaguely (curl's "transfer closed" is `URLError.unknown` on Linux) is
    /// known to be a connection lost mid-body.
    private static func requestError(for error: any Error, request: PreparedRequest, afterHead: Bool) -> RequestError {
        guard let urlError = error as? URLError else {
            return .transport(TransportFailure(.other, request: request.summary, detail: "\(error)", cause: error))
        }
        let kind: TransportFailure.Kind
        switch urlError.code {
        case .cancelled: return .cancelled
        case .appTransportSecurityRequiresSecureConnection: return .insecureConnection(request.summary)
        case .cannotFindHost, .dnsLookupFailed: kind = .hostNotFound
        case .cannotConnectToHost: kind = .connectionRefused
        case .networkConnectionLost, .notConnectedToInternet, .badServerResponse, .zeroByteResource:
            kind = .connectionLost
        case .timedOut: return .transport(.timedOut(request))
        case .httpTooManyRedirects: kind = .tooManyRedirects
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            kind = .tls
        case .unknown where isCurlTLSFailure(urlError): kind = .tls
        default: kind = afterHead ? .connectionLost : .other
        }
        return .transport(
            TransportFailure(kind, request: request.summary, detail: urlError.localizedDescription, cause: urlError)
        )
    }
}

/// Whether `error` is a TLS failure that FoundationNetworking on Linux reports only as
/// `URLError.unknown` carrying libcurl's message ("SSL certificate problem: …", "SSL connect
/// error", "SSL: no alternative certificate subject name matches …").
private func isCurlTLSFailure(_ error: URLError) -> Bool {
    #if canImport(FoundationNetworking)
    return error.localizedDescription.hasPrefix("SSL")
    #else
    return false
    #endif
}
