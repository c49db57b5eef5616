public import Foundation

/// The cookies a client keeps, by the rules of RFC 6265bis: which `Set-Cookie` fields to
/// store, and which cookies go with each request.
///
/// Off by default: give one to ``HTTPClient/Configuration/cookies``, and every request the
/// client sends, each redirect hop included, gets the cookies that match its URL, and every
/// response's `Set-Cookie` is stored.
///
/// ```swift
/// let cookies = try CookieStore(file: URL(fileURLWithPath: "cookies.txt"))
/// let client = HTTPClient(transport: transport, configuration: .init(cookies: cookies))
/// ```
///
/// - A cookie goes to the host that set it, or with a `Domain` attribute to that domain and the
///   hosts under it; never to a domain the request's host is not in, an IP address it is not,
///   or a public suffix (`com`, `co.uk`, ``PublicSuffixList``); to its path and those under it;
///   with `Secure`, over HTTPS only, and only an HTTPS response may set it (or replace one).
///   `__Secure-` and `__Host-` names hold the RFC's promises.
/// - `Max-Age` wins over `Expires`; no cookie lives more than 400 days; an expired one is
///   removed. At most 50 cookies a domain and 3,000 in all: the least recently sent go first.
/// - With a file, the store reads it at the start (curl's and Netscape's cookie file format,
///   so `curl -b`/`-c` can share it) and writes it again after every change: a new file, only
///   its owner may read (0600), put in place by renaming, so that a crash leaves the old file
///   or the new one, never half of one. Session cookies are kept in it too, as curl keeps them.
public actor CookieStore {
    private var cookies: [Cookie] = []
    private let publicSuffixes: PublicSuffixList
    private let file: URL?
    /// Why the file could not be written last, until a write succeeds.
    private var saveFailure: CookieFileError?

    /// At most this many cookies for one domain.
    public static let maximumPerDomain = 50
    /// At most this many cookies in all.
    public static let maximumCount = 3_000

    /// An empty store in memory.
    public init(publicSuffixes: PublicSuffixList = .system) {
        self.publicSuffixes = publicSuffixes
        self.file = nil
    }

    /// A store kept in `file`: what it holds is read now (a file that does not exist yet is an
    /// empty store), and every change is written back.
    ///
    /// - Throws: ``CookieFileError`` when the file cannot be read or is not a cookie file.
    public init(file: URL, publicSuffixes: PublicSuffixList = .system, now: Date = Date()) throws(CookieFileError) {
        self.publicSuffixes = publicSuffixes
        self.file = file
        self.cookies = try CookieFile.read(file, now: now)
        Self.evict(&cookies, domain: nil, now: now)
    }

    // MARK: - Reading

    /// Every cookie the store holds that has not expired, in the order a request would send them.
    public func all(now: Date = Date()) -> [Cookie] {
        Self.inSendingOrder(cookies.filter { !$0.hasExpired(at: now) })
    }

    /// The cookies that go with a request to `url`, longest path first (then oldest first).
    public func cookies(for url: URL, now: Date = Date()) -> [Cookie] {
        guard let target = CookieTarget(url) else { return [] }
        return matching(target, now: now)
    }

    /// The `Cookie` field's value for a request to `scheme://host` and `path`, or `nil` when no
    /// cookie goes; marks those cookies as just used.
    func header(scheme: String, host: String, path: String, now: Date = Date()) -> String? {
        let target = CookieTarget(scheme: scheme, host: host, path: path)
        let sent = matching(target, now: now)
        guard !sent.isEmpty else { return nil }
        for index in cookies.indices where sent.contains(where: { $0.isSameCookie(as: cookies[index]) }) {
            cookies[index].lastAccess = now
        }
        return sent.map(\.pair).joined(separator: "; ")
    }

    private func matching(_ target: CookieTarget, now: Date) -> [Cookie] {
        Self.inSendingOrder(
            cookies.filter { cookie in
                !cookie.hasExpired(at: now)
                    && (cookie.isHostOnly
                        ? target.host == cookie.domain : Self.domain(cookie.domain, matches: target.host))
                    && Self.path(cookie.path, matches: target.path) && (!cookie.isSecure || target.isSecure)
            }
        )
    }

    // MARK: - Storing

    /// Stores what the `Set-Cookie` fields of a response from `url` set, as the storage rules
    /// allow; ignores the rest.
    public func receive(_ fields: [String], from url: URL, now: Date = Date()) {
        guard let target = CookieTarget(url) else { return }
        receive(fields, target: target, now: now)
    }

    /// Stores what `fields` set for a response to `scheme://host` and `path`.
    func receive(_ fields: [String], scheme: String, host: String, path: String, now: Date = Date()) {
        receive(fields, target: CookieTarget(scheme: scheme, host: host, path: path), now: now)
    }

    private func receive(_ fields: [String], target: CookieTarget, now: Date) {
        var changed = false
        for field in fields {
            guard let set = SetCookie(field, now: now), let cookie = storable(set, from: target, now: now) else {
                continue
            }
            changed = store(cookie, now: now) || changed
        }
        if changed { persist() }
    }

    /// The cookie `set` makes for a response from `target`, or `nil` when the rules refuse it
    /// (RFC 6265bis §5.7).
    private func storable(_ set: SetCookie, from target: CookieTarget, now: Date) -> Cookie? {
        if set.isSecure, !target.isSecure { return nil }
        let lowercasedName = set.name.lowercased()
        if lowercasedName.hasPrefix("__secure-"), !set.isSecure { return nil }
        if lowercasedName.hasPrefix("__host-"), !set.isSecure || set.domain != nil || set.path != "/" { return nil }
        var cookie = Cookie(
            name: set.name,
            value: set.value,
            domain: target.host,
            path: set.path ?? Self.defaultPath(of: target.path),
            isSecure: set.isSecure,
            isHTTPOnly: set.isHTTPOnly,
            sameSite: set.sameSite,
            expires: set.expires,
            created: now
        )
        if let domain = set.domain, domain != target.host {
            // Never a public suffix (`com`), never a domain the host is not in.
            guard !publicSuffixes.isPublicSuffix(domain), Self.domain(domain, matches: target.host) else { return nil }
            cookie.domain = domain
            cookie.isHostOnly = false
        } else if set.domain != nil {
            cookie.isHostOnly = publicSuffixes.isPublicSuffix(target.host) || CookieTarget.isIPAddress(target.host)
        }
        // A cleartext response cannot shadow a secure cookie it could not see (§5.7, step 16).
        if !target.isSecure,
            cookies.contains(where: { old in
                old.isSecure && old.name == cookie.name && !old.hasExpired(at: now)
                    && (Self.domain(old.domain, matches: cookie.domain)
                        || Self.domain(cookie.domain, matches: old.domain))
                    && Self.path(old.path, matches: cookie.path)
            })
        {
            return nil
        }
        return cookie
    }

    /// Puts `cookie` in place of the one with its name, domain, host-only flag and path (keeping
    /// that one's creation time), or removes it when it has expired; whether anything changed.
    private func store(_ cookie: Cookie, now: Date) -> Bool {
        var cookie = cookie
        if let existing = cookies.firstIndex(where: { $0.isSameCookie(as: cookie) }) {
            guard !cookie.hasExpired(at: now) else {
                cookies.remove(at: existing)
                return true
            }
            cookie.created = cookies[existing].created
            cookies[existing] = cookie
            return true
        }
        guard !cookie.hasExpired(at: now) else { return false }
        cookies.append(cookie)
        Self.evict(&cookies, domain: cookie.domain, now: now)
        return true
    }

    /// Removes every cookie.
    public func removeAll() {
        guard !cookies.isEmpty else { return }
        cookies.removeAll()
        persist()
    }

    // MARK: - The file

    /// Writes the store to its file now (it does after every change by itself).
    ///
    /// - Throws: ``CookieFileError`` when the file cannot be written, now or at the last change.
    public func save(now: Date = Date()) throws(CookieFileError) {
        guard let file else { return }
        try CookieFile.write(cookies.filter { !$0.hasExpired(at: now) }, to: file)
        saveFailure = nil
    }

    /// Writes the file after a change; a failure is kept for ``save(now:)`` to report.
    private func persist() {
        do {
            try save()
        } catch {
            saveFailure = error
        }
    }

    /// Why the last write of the file failed, if it did and none has succeeded since.
    public var lastSaveFailure: CookieFileError? { saveFailure }

    // MARK: - Rules

    /// Longest path first, then oldest first (RFC 6265bis §5.8.3), then in the order stored.
    private static func inSendingOrder(_ cookies: [Cookie]) -> [Cookie] {
        cookies.enumerated().sorted { a, b in
            let (left, right) = (a.element, b.element)
            if left.path.utf8.count != right.path.utf8.count { return left.path.utf8.count > right.path.utf8.count }
            if left.created != right.created { return left.created < right.created }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Drops expired cookies, then the least recently sent of `domain` beyond its limit, then
    /// the least recently sent of all beyond the total.
    private static func evict(_ cookies: inout [Cookie], domain: String?, now: Date) {
        cookies.removeAll { $0.hasExpired(at: now) }
        func dropOldest(_ excess: Int, where belongs: (Cookie) -> Bool) {
            guard excess > 0 else { return }
            let oldest = cookies.indices.filter { belongs(cookies[$0]) }
                .sorted { cookies[$0].lastAccess < cookies[$1].lastAccess }
                .prefix(excess)
            for index in oldest.sorted(by: >) { cookies.remove(at: index) }
        }
        if let domain {
            let count = cookies.count(where: { $0.domain == domain })
            dropOldest(count - maximumPerDomain) { $0.domain == domain }
        } else {
            let counts = Dictionary(grouping: cookies, by: \.domain).mapValues(\.count)
            for (domain, count) in counts where count > maximumPerDomain {
                dropOldest(count - maximumPerDomain) { $0.domain == domain }
            }
        }
        dropOldest(cookies.count - maximumCount) { _ in true }
    }

    /// Whether `host` is `domain` or a name under it (RFC 6265bis §5.1.3); an IP address only
    /// matches itself.
    static func domain(_ domain: String, matches host: String) -> Bool {
        host == domain
            || (host.hasSuffix(domain) && host.utf8.dropLast(domain.utf8.count).last == UInt8(ascii: ".")
                && !CookieTarget.isIPAddress(host))
    }

    /// Whether a request to `requestPath` gets a cookie for `cookiePath` (RFC 6265bis §5.1.4).
    static func path(_ cookiePath: String, matches requestPath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.utf8.count == cookiePath.utf8.count || cookiePath.hasSuffix("/")
            || requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// The path a cookie without `Path` gets: the request path up to its last `/` (§5.1.4).
    static func defaultPath(of requestPath: String) -> String {
        guard requestPath.first == "/", let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex
        else { return "/" }
        return String(requestPath[..<slash])
    }
}

extension Cookie {
    /// Whether it has expired at `now`.
    func hasExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether `other` is the same cookie, perhaps with another value: the same name, domain,
    /// host-only flag and path.
    func isSameCookie(as other: Cookie) -> Bool {
        name == other.name && domain == other.domain && isHostOnly == other.isHostOnly && path == other.path
    }
}

/// What the cookie rules look at in a request: whether it is secure, its host and path.
struct CookieTarget {
    var isSecure: Bool
    /// Lowercased, without IPv6 brackets or a trailing dot.
    var host: String
    /// The path, without the query.
    var path: String

    init(scheme: String, host: String, path: String) {
        isSecure = ["https", "wss"].contains(scheme.lowercased())
        var host = Substring(host.lowercased())
        if host.first == "[", host.last == "]" { host = host.dropFirst().dropLast() }
        while host.last == "." { host = host.dropLast() }
        self.host = String(host)
        let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        self.path = path.isEmpty ? "/" : String(path)
    }

    init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true), let scheme = components.scheme,
            let host = components.encodedHost, !host.isEmpty
        else { return nil }
        self.init(scheme: scheme, host: host, path: components.percentEncodedPath)
    }

    static func isIPAddress(_ host: String) -> Bool { AddressPrefix.bytes(of: host) != nil }
}
