/// How one request uses an ``HTTPCache``.
///
/// ```swift
/// let fresh = try await client.send(endpoint.usingCachePolicy(.reloadIgnoringCache))
/// let offline = try await client.send(endpoint.usingCachePolicy(.returnCacheDontLoad))
/// ```
public enum CachePolicy: Sendable, Hashable {
    /// HTTP's rules (RFC 9111): fresh stored responses are used, stale ones revalidated.
    case useProtocolPolicy
    /// Always ask the origin; the answer is still stored for later requests.
    case reloadIgnoringCache
    /// A stored response however old, else the network.
    case returnCacheElseLoad
    /// A stored response however old, else `504 Gateway Timeout` without touching the network
    /// (offline mode).
    case returnCacheDontLoad
}

/// Where a response came from, when a cache was involved.
public enum CacheOutcome: String, Sendable, Hashable {
    /// A fresh stored response; no request was sent.
    case hit = "HIT"
    /// The origin answered; the response may have been stored.
    case miss = "MISS"
    /// The stored response was confirmed by the origin with a `304 Not Modified`.
    case revalidated = "REVALIDATED"
    /// A stale stored response, used as the request's policy or directives allow.
    case stale = "STALE"
}
