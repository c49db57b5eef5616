public import Courier
import Foundation
public import HTTPTypes
import Synchronization

/// A transport that answers from a route table instead of the network, and remembers every
/// request it saw — for what a real loopback server cannot produce on demand.
///
/// ```swift
/// let stub = StubTransport()
/// stub.on(.get, "/3/movie/550", .json(#"{"id": 550, "title": "Fight Club"}"#))
/// stub.on(.get, "/3/movie/*", .failure(.transport(TransportFailure(.timedOut, request: summary))))
/// let client = HTTPClient(transport: stub, configuration: .init(baseURL: URL(string: "https://api.test")))
/// let movie = try await client.send(TMDB.movie(550).details)
/// #expect(stub.requests.map(\.url) == ["https://api.test/3/movie/550"])
/// ```
///
/// Routes match the method (or any, when `nil`) and the path without its query; a path ending
/// in `*` matches every path with that prefix. The route added last wins. A request no route
/// matches gets a 404 whose body names it.
public final class StubTransport: HTTPTransport {
    /// Computes a response for a request.
    public typealias Handler = @Sendable (PreparedRequest) throws(RequestError) -> StubResponse

    private struct Route {
        var method: HTTPRequest.Method?
        var path: String
        var handler: Handler

        func matches(_ request: PreparedRequest) -> Bool {
            if let method, method != request.head.method { return false }
            let full = request.head.path ?? "/"
            let path = full.firstIndex(of: "?").map { String(full[..<$0]) } ?? full
            return self.path.hasSuffix("*") ? path.hasPrefix(self.path.dropLast()) : path == self.path
        }
    }

    private struct State {
        var routes: [Route] = []
        var requests: [PreparedRequest] = []
    }

    private let state = Mutex(State())

    /// Creates a stub with no routes.
    public init() {}

    // MARK: - Routes

    /// Answers requests for `path` with `response`.
    public func on(_ method: HTTPRequest.Method? = nil, _ path: String, _ response: StubResponse) {
        on(method, path) { _ throws(RequestError) in response }
    }

    /// Answers requests for `path` with what `handler` returns for each.
    public func on(_ method: HTTPRequest.Method? = nil, _ path: String, handler: @escaping Handler) {
        state.withLock { $0.routes.append(Route(method: method, path: path, handler: handler)) }
    }

    // MARK: - Observing

    /// Every request sent so far, in order.
    public var requests: [PreparedRequest] { state.withLock { $0.requests } }

    /// Forgets the requests seen so far; routes stay.
    public func clearRequests() { state.withLock { $0.requests.removeAll() } }

    // MARK: - HTTPTransport

    /// Sends the request; see `HTTPTransport.send(_:)`.
    public func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
        let route = state.withLock { state in
            state.requests.append(request)
            return state.routes.last { $0.matches(request) }
        }
        guard let route else {
            let text =
                "StubTransport has no route for \(request.head.method) \(request.head.path ?? "/"); add one with on(_:_:_:)"
            return RawResponse(
                head: HTTPResponse(status: .notFound, headerFields: [.contentType: "text/plain"]),
                body: Data(text.utf8),
                url: request.url
            )
        }
        let response = try route.handler(request)
        if let delay = response.delay {
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw .cancelled
            }
        }
        if Task.isCancelled { throw .cancelled }
        if let failure = response.failure { throw failure }
        if response.body.count > request.maxResponseSize {
            throw .bodyTooLarge(request.summary, limit: request.maxResponseSize)
        }
        return RawResponse(
            head: HTTPResponse(status: response.status, headerFields: response.headers),
            body: response.body,
            url: request.url
        )
    }
}
