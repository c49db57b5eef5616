public import Courier
public import Hummingbird

/// The names a local server answers to: loopback names and addresses, and the one address it
/// was told to listen on. A request whose `Host` names anything else is refused with 421, so
/// that a web page whose domain an attacker re-points at 127.0.0.1 (DNS rebinding) cannot
/// reach the server through the person's browser.
///
/// The `Host` is parsed strictly, once (Courier's `HTTPAuthority`): `127.0.0.1:80@evil.example`
/// is no name of this machine.
///
/// ```swift
/// router.middlewares.add(HostGuard(listeningOn: "127.0.0.1"))
/// ```
public struct HostGuard<Context: RequestContext>: RouterMiddleware {
    /// The name or address answered besides loopback ones, lowercased: the listening address
    /// unless it is a loopback or wildcard one (`0.0.0.0`, `::` however written, which name no
    /// host).
    public let extraHost: String?

    /// A guard for a server listening on `host` (a name, an IPv4 address, or an IPv6 address
    /// with or without brackets).
    public init(listeningOn host: String) {
        let parsed = HTTPAuthority(parsing: ListeningAddress.authority(host))
        if let parsed, !parsed.isLoopback, !ListeningAddress.isWildcard(host) {
            self.extraHost = parsed.host
        } else {
            self.extraHost = nil
        }
    }

    /// The request's `Host`, parsed, when it names this server; `nil` when it names another.
    public func authority(of request: Request) -> HTTPAuthority? {
        guard let authority = request.head.authority, let parsed = HTTPAuthority(parsing: authority),
            parsed.isLoopback || parsed.host == extraHost
        else { return nil }
        return parsed
    }

    /// Passes requests addressed to this server on; answers others with a 421 problem.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard authority(of: request) != nil else { return Self.misdirected.response }
        return try await next(request, context)
    }

    /// The answer to a request addressed to another name.
    public static var misdirected: HTTPProblem {
        HTTPProblem(
            .misdirectedRequest,
            detail: "This server answers only to its own address, such as http://127.0.0.1 with its port."
        )
    }
}
