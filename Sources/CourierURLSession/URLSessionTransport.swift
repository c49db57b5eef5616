public import Courier
public import HTTPTypes
import Synchronization

#if canImport(FoundationNetworking)
public import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A transport on `URLSession`, for Apple platforms and for Linux programs that prefer
/// Foundation's networking.
///
/// It does not follow redirects itself (`HTTPClient` does, the same way for every
/// transport), enforces the total timeout and response-size limit of each request, and cancels
/// the `URLSessionTask` when the calling task is cancelled. Call ``invalidate()`` when done:
/// a session keeps its delegate until then.
///
/// Proxies are the session's: on Apple platforms the system's settings or the configuration's
/// `connectionProxyDictionary`; on Linux FoundationNetworking has no proxy setting, and its
/// libcurl reads `https_proxy`, `http_proxy`, `all_proxy` and `no_proxy` by itself, by the
/// rules `ProxySettings.init(environment:)` follows.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate
    /// The longest timeout handed to Foundation, in seconds (a year).
    fileprivate static let longestTimeout: TimeInterval = 365 * 86_400

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: The session configuration; `.ephemeral` by default. The
    ///   transport uses a copy whose `urlCache` and cookie storage are switched off: caching and
    ///   cookies belong to the client, where they follow the same rules on every platform.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Cookies too belong to the client (`HTTPClient.Configuration.cookies`): a session's
        // own store would keep and send them silently, by other rules.
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Cancels outstanding tasks and releases the session.
    public func invalidate() {
        session.invalidateAndCancel()
    }

    // MARK: - Sending

    /// Sends the request; see `HTTPTransport.send(_:)`.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        let task = try await dataTask(for: request)
        let delegate = delegate
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.start(task, request: request, receiver: .whole(continuation))
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

    /// Sends the request and hands the response on as it arrives; see
    /// `HTTPTransport.send(_:head:body:)`.
    ///
    /// The session's delegate receives the body. On Apple platforms, when about a megabyte waits
    /// for `body`, the task is suspended until it has been taken, so a slow receiver holds the
    /// transfer back. FoundationNetworking on Linux goes on delivering to a suspended task: there
    /// a receiver that falls 16 MiB behind ends the exchange with
    /// `TransportFailure.Kind.other` saying so (AsyncHTTPClientTransport has no such limit).
    public func send(
        _ request: PreparedRequest,
        head: @escaping @Sendable (HTTPResponse) async throws(RequestError) -> Void,
        body: @escaping @Sendable (Data) async throws(RequestError) -> Void
    ) async throws(RequestError) {
        let task = try await dataTask(for: request)
        let stream = URLSessionStream(task: task, request: request.summary)
        delegate.start(task, request: request, receiver: .streamed(stream))
        let result = await withTaskCancellationHandler { () async -> Result<Void, RequestError> in
            do throws(RequestError) {
                while let event = try await stream.next() {
                    switch event {
                    case .head(let response): try await head(response)
                    case .body(let chunk): try await body(chunk)
                    }
                }
                return .success(())
            } catch {
                task.cancel()
                return .failure(error)
            }
        } onCancel: {
            task.cancel()
        }
        try result.get()
    }

    /// A data task for the request, not yet resumed: an upload task for a streamed body, which
    /// URLSession reads from a file (a sequence of chunks is written to a temporary file first,
    /// removed when the task ends).
    private func dataTask(for request: PreparedRequest) async throws(RequestError) -> URLSessionDataTask {
        guard let url = URL(string: request.url) else {
            throw .invalidURL(request.summary.url, reason: "Foundation cannot parse it")
        }
        if Task.isCancelled { throw .cancelled }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpShouldHandleCookies = false  // the client's store decides (see init)
        urlRequest.httpMethod = request.head.method.rawValue
        // One Cookie field: Foundation would join its pieces by ", ".
        for (name, value) in request.wireFields {
            urlRequest.addValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        if let timeout = request.timeout {
            // FoundationNetworking turns the interval into whole milliseconds and traps past
            // Int.max: a year is as good as for ever for one request.
            urlRequest.timeoutInterval = min(max(0.001, timeout.seconds), Self.longestTimeout)
        }
        guard let streamed = request.streamedBody else { return session.dataTask(with: urlRequest) }
        let file: URL
        if let given = streamed.file {
            file = given
        } else {
            file = try await TemporaryBodyFile.write(streamed, for: request.summary)
        }
        // The file as it is now is what URLSession sends.
        if let length = try? RequestBody.fileSize(file) {
            urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
        }
        let task = session.uploadTask(with: urlRequest, fromFile: file)
        if streamed.file == nil { delegate.removeWhenDone(file, task: task) }
        return task
    }
}

/// Collects each task's response and bytes, and finishes its continuation exactly once.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Who gets the response: a caller waiting for it whole, or a stream.
    enum Receiver {
        case whole(CheckedContinuation<RawResponse, any Error>)
        case streamed(URLSessionStream)
    }

    private struct Exchange {
        let request: PreparedRequest
        let receiver: Receiver
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
        receiver: Receiver
    ) {
        exchanges.withLock { $0[task.taskIdentifier] = Exchange(request: request, receiver: receiver) }
        if let timeout = request.timeLeft.map({ min($0, .seconds(URLSessionTransport.longestTimeout)) }) {
            let failure = RequestError.transport(.timedOut(request))
            // URLSession's own timeout is an idle timeout; this one bounds the whole exchange.
            // Started once the exchange is stored: a timer that fires at once finds it.
            let timer = Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.stop(task, because: failure)
            }
            let stored = exchanges.withLock { exchanges in
                guard exchanges[task.taskIdentifier] != nil else { return false }
                exchanges[task.taskIdentifier]?.timer = timer
                return true
            }
            if !stored { timer.cancel() }
        }
        task.resume()
    }

    /// Removes `file` when `task` ends.
    func removeWhenDone(_ file: URL, task: URLSessionTask) {
        temporaryFiles.withLock { $0[task.taskIdentifier] = file }
    }

    private let temporaryFiles = Mutex<[Int: URL]>([:])

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let progress = exchanges.withLock { $0[task.taskIdentifier]?.request.streamedBody?.progress }
        let expected = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil
        progress?(UploadProgress(bytesSent: totalBytesSent, expectedBytes: expected))
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
        let (tooLarge, stream, request) = exchanges.withLock {
            exchanges -> (RequestError?, URLSessionStream?, PreparedRequest?) in
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return (nil, nil, nil) }
            exchange.response = response as? HTTPURLResponse
            exchanges[dataTask.taskIdentifier] = exchange
            if case .streamed(let stream) = exchange.receiver { return (nil, stream, exchange.request) }
            let limit = exchange.request.maxResponseSize
            let tooLarge = response.expectedContentLength > limit
            return (tooLarge ? .bodyTooLarge(exchange.request.summary, limit: limit) : nil, nil, exchange.request)
        }
        if let stream, let response = response as? HTTPURLResponse, let request {
            stream.deliver(.head(Self.head(of: response, for: request)))
        }
        if let tooLarge {
            stop(dataTask, because: tooLarge)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let receiver = exchanges.withLock { $0[dataTask.taskIdentifier]?.receiver }
        if case .streamed(let stream) = receiver {
            stream.deliver(.body(data))
            return
        }
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
        if let file = temporaryFiles.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
            try? FileManager.default.removeItem(at: file)
        }
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        exchange.timer?.cancel()
        let result: Result<RawResponse, RequestError>
        if let failure = exchange.failure {
            result = .failure(failure)
        } else if let error {
            result = .failure(
                Self.requestError(for: error, request: exchange.request, response: exchange.response)
            )
        } else if let response = exchange.response {
            result = .success(
                RawResponse(
                    head: Self.head(of: response, for: exchange.request),
                    body: exchange.body,
                    url: exchange.request.url
                )
            )
        } else {
            let failure = TransportFailure(.other, request: exchange.request.summary, detail: "no HTTP response")
            result = .failure(.transport(failure))
        }
        switch exchange.receiver {
        case .whole(let continuation): continuation.resume(with: result.mapError { $0 })
        case .streamed(let stream): stream.finish(result.map { _ in () })
        }
    }

    // MARK: - Conversions

    /// The head as the body arrives: Foundation has undone the content codings it knows, so
    /// their `Content-Encoding` and `Content-Length` go, as every transport removes them.
    private static func head(of response: HTTPURLResponse, for request: PreparedRequest) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in response.allHeaderFields {
            guard let name = (name as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else {
                continue
            }
            // Foundation joins repeated fields with ", ", which `Set-Cookie` cannot take.
            for value in name == .setCookie ? SetCookie.fields(inCombined: value) : [value] {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        let head = HTTPResponse(
            status: .init(code: response.statusCode, reasonPhrase: ReasonPhrase.standard(for: response.statusCode)),
            headerFields: fields
        )
        // libcurl undoes up to five codings (CFNetwork does not say).
        let decoded = ContentCoding.codingsToUndo(in: head, method: request.head.method, maximumLayers: 5) {
            foundationDecodes.contains($0.name)
        }
        return decoded.isEmpty ? head : ContentCoding.decodedHead(head)
    }

    /// The codings Foundation undoes by itself: libcurl's on Linux, CFNetwork's elsewhere.
    #if canImport(FoundationNetworking)
    private static let foundationDecodes: Set<String> = ["gzip", "deflate", "br", "zstd"]
    #else
    private static let foundationDecodes: Set<String> = ["gzip", "deflate", "br"]
    #endif

    /// Maps Foundation's error; a `response` tells that it had begun, so that a failure
    /// Foundation reports vaguely (curl's "transfer closed" is `URLError.unknown` on Linux) is
    /// known to be a connection lost mid-body.
    private static func requestError(
        for error: any Error,
        request: PreparedRequest,
        response: HTTPURLResponse?
    ) -> RequestError {
        let afterHead = response != nil
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
        case .cannotDecodeContentData, .cannotDecodeRawData: kind = .undecodableBody
        case .unknown where isCurlDecodingFailure(urlError, response: response): kind = .undecodableBody
        default: kind = afterHead ? .connectionLost : .other
        }
        return .transport(
            TransportFailure(kind, request: request.summary, detail: urlError.localizedDescription, cause: urlError)
        )
    }
}

/// Whether `error` is libcurl failing to undo a response's content coding, which
/// FoundationNetworking on Linux reports only as `URLError.unknown`: "Error while processing
/// content unencoding: …" for corrupt data, or a failed write for bytes after its end.
private func isCurlDecodingFailure(_ error: URLError, response: HTTPURLResponse?) -> Bool {
    #if canImport(FoundationNetworking)
    let message = error.localizedDescription
    let coded = response?.value(forHTTPHeaderField: "Content-Encoding").map { !$0.isEmpty } ?? false
    return message.hasPrefix("Error while processing content unencoding")
        || (coded && message.hasPrefix("Failed writing received data"))
    #else
    return false
    #endif
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
