public import Foundation

/// The cookies a client keeps, by the rules of RFC 6265bis: which `Set-Cookie` fields to
/// store, and which cookies go with each request.
///
/// Off by default: give one to ``HTTPClient/Configuration/cookies``, and every request the
/// client sends, each redirect hop included, gets the cookies that match its URL, and what
/// each response's `Set-Cookie` fields may set is stored.
///
/// ```swift
/// let cookies = try CookieStore(file: URL(fileURLWithPath: "cookies.txt"))
/// let client = HTTPClient(transport: transport, configuration: .init(cookies: cookies))
/// ```
///
/// - A cookie goes to the host that set it, or with a `Domain` attribute to that domain and the
///   hosts under it; never to a domain the request's host is not in, an IP address it is not,
///   or a public suffix (`com`, `co.uk`, ``PublicSuffixList``; without a list, a `Domain`
///   cookie stays with the host that set it); to its path and those under it; with `Secure`,
///   over HTTPS only, and only an HTTPS response may set, replace or evict it. `__Secure-` and
///   `__Host-` names hold the RFC's promises, also against a nameless cookie that reads as one.
/// - `Max-Age` wins over `Expires`; no cookie lives more than 400 days; an expired one is
///   removed. At most 50 `Set-Cookie` fields a response are read; at most 180 cookies a site
///   (a registrable domain) and 3,000 in all are kept: the least recently sent go first, those
///   without `Secure` before those with it.
/// - With a file, the store reads it at the start (curl's and Netscape's cookie file format,
///   so `curl -b`/`-c` can share it) and writes it again after every change: a new file, only
///   its owner may read (0600), flushed and put in place by renaming, so that a crash leaves
///   the old file or the new one, never half of one. Session cookies are kept in it too, as
///   curl keeps them.
public actor CookieStore {
    /// The cookies by their domain: a request's are found among its host's and the domains
    /// above it, not among all.
    private var buckets: [String: [Cookie]] = [:]
    private var count = 0
    /// The next cookie's place in the order stored, which breaks ties in the sending order.
    private var nextSequence = 0
    /// The list given, or `nil` for the system's, read the first time a rule needs it.
    private let givenSuffixes: PublicSuffixList?
    private var publicSuffixes: PublicSuffixList { givenSuffixes ?? .system }
    private let file: URL?
    /// Why the file could not be written last, until a write succeeds.
    private var saveFailure: CookieFileError?

    /// At most this many cookies for one site (a registrable domain, `example.co.uk`, with the
    /// names under it), as Chrome keeps.
    public static let maximumPerSite = 180
    /// At most this many cookies in all.
    public static let maximumCount = 3_000
    /// At most this many `Set-Cookie` fields of one response are read, as curl reads.
    public static let maximumFieldsPerResponse = 50

    /// An empty store in memory.
    ///
    /// - Parameter publicSuffixes: The suffixes no cookie may be set for; the system's list
    ///   (``PublicSuffixList/system``) when `nil`.
    public init(publicSuffixes: PublicSuffixList? = nil) {
        self.givenSuffixes = publicSuffixes
        self.file = nil
    }

    /// A store kept in `file`: what it holds is read now (a file that does not exist yet is an
    /// empty store), and every change is written back.
    ///
    /// - Throws: ``CookieFileError`` when the file cannot be read or is not a cookie file.
    public init(file: URL, publicSuffixes: PublicSuffixList? = nil, now: Date = Date()) throws(CookieFileError) {
        self.givenSuffixes = publicSuffixes
        self.file = file
        // What the rules would refuse now (a cookie for a public suffix that another program
        // wrote) is not taken. (The list is read only if a cookie names a domain.)
        var cookies = try CookieFile.read(file, now: now).filter { cookie in
            cookie.isHostOnly || !(publicSuffixes ?? .system).isPublicSuffix(cookie.domain)
        }
        for index in cookies.indices { cookies[index].sequence = index }
        nextSequence = cookies.count
        Self.enforceLimits(&cookies, site: nil, fromSecureOrigin: true, now: now) { publicSuffixes ?? .system }
        buckets = Dictionary(grouping: cookies, by: \.domain)
        count = cookies.count
    }

    /// Every cookie, in no particular order.
    private var flattened: [Cookie] { buckets.values.flatMap { $0 } }

    private func replaceAll(with cookies: [Cookie]) {
        buckets = Dictionary(grouping: cookies, by: \.domain)
        count = cookies.count
    }

    // MARK: - Reading

    /// Every cookie the store holds that has not expired, in the order a request would send them.
    public func all(now: Date = Date()) -> [Cookie] {
        Self.inSendingOrder(flattened.filter { !$0.hasExpired(at: now) })
    }

    /// The cookies that go with a request to `url`, longest path first (then oldest first).
    public func cookies(for url: URL, now: Date = Date()) -> [Cookie] {
        guard let target = CookieTarget(url) else { return [] }
        return Self.inSendingOrder(matching(target, now: now).map { buckets[$0.domain]?[$0.index] }.compactMap { $0 })
    }

    /// The `Cookie` field's value for a request to `scheme://host` and `path`, or `nil` when no
    /// cookie goes; marks those cookies as just used.
    func header(scheme: String, host: String, path: String, now: Date = Date()) -> String? {
        let target = CookieTarget(scheme: scheme, host: host, path: path)
        var sent: [Cookie] = []
        for (domain, index) in matching(target, now: now) {
            buckets[domain]?[index].lastAccess = now
            if let cookie = buckets[domain]?[index] { sent.append(cookie) }
        }
        guard !sent.isEmpty else { return nil }
        return Self.inSendingOrder(sent).map(\.pair).joined(separator: "; ")
    }

    /// Where the cookies for `target` are: in the buckets of its host and of the domains above
    /// it (an IP address has none above), those whose rules let them go.
    private func matching(_ target: CookieTarget, now: Date) -> [(domain: String, index: Int)] {
        var found: [(domain: String, index: Int)] = []
        for domain in Self.domains(covering: target.host) {
            guard let bucket = buckets[domain] else { continue }
            for (index, cookie) in bucket.enumerated()
            where !cookie.hasExpired(at: now) && (!cookie.isHostOnly || domain == target.host)
                && Self.path(cookie.path, matches: target.path) && (!cookie.isSecure || target.isSecure)
            {
                found.append((domain, index))
            }
        }
        return found
    }

    /// `host`, then each domain above it (`b.example.com`, `example.com`, `com` for
    /// `a.b.example.com`): the domains that domain-match it (RFC 6265bis §5.1.3).
    private static func domains(covering host: String) -> [String] {
        guard !CookieTarget.isIPAddress(host) else { return [host] }
        var domains = [host]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
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
        for field in fields.prefix(Self.maximumFieldsPerResponse) {
            guard let set = SetCookie(field, now: now), let cookie = storable(set, from: target, now: now) else {
                continue
            }
            changed = store(cookie, fromSecureOrigin: target.isSecure, now: now) || changed
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
        // A nameless cookie is sent as its value alone: one that reads as a prefixed name would
        // pass for it without its promises.
        if set.name.isEmpty, ["__secure-", "__host-"].contains(where: set.value.lowercased().hasPrefix) { return nil }
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
        let suffixes = publicSuffixes
        if let domain = set.domain, domain != target.host {
            // Never a public suffix (`com`), never a domain the host is not in.
            guard !suffixes.isPublicSuffix(domain), Self.domain(domain, matches: target.host) else { return nil }
            // Without a list no suffix is known but the top-level names: the cookie then goes
            // back to the host that set it only.
            if suffixes.count > 0 {
                cookie.domain = domain
                cookie.isHostOnly = false
            }
        } else if set.domain != nil {
            cookie.isHostOnly = suffixes.isPublicSuffix(target.host) || CookieTarget.isIPAddress(target.host)
        }
        // A cleartext response cannot shadow a secure cookie it could not see (§5.7, step 16).
        if !target.isSecure,
            flattened.contains(where: { old in
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
    private func store(_ cookie: Cookie, fromSecureOrigin: Bool, now: Date) -> Bool {
        var cookie = cookie
        if let existing = buckets[cookie.domain]?.firstIndex(where: { $0.isSameCookie(as: cookie) }) {
            guard !cookie.hasExpired(at: now) else {
                buckets[cookie.domain]?.remove(at: existing)
                count -= 1
                return true
            }
            if let old = buckets[cookie.domain]?[existing] {
                cookie.created = old.created
                cookie.sequence = old.sequence
            }
            buckets[cookie.domain]?[existing] = cookie
            return true
        }
        guard !cookie.hasExpired(at: now) else { return false }
        cookie.sequence = nextSequence
        nextSequence += 1
        buckets[cookie.domain, default: []].append(cookie)
        count += 1
        enforceLimits(afterStoringFor: cookie.domain, fromSecureOrigin: fromSecureOrigin, now: now)
        return true
    }

    /// Enforces the limits once a cookie for `domain` is stored: only when there are enough
    /// cookies for one to be over, and by rebuilding the buckets only when some must go.
    private func enforceLimits(afterStoringFor domain: String, fromSecureOrigin: Bool, now: Date) {
        guard count > Self.maximumPerSite else { return }
        // Each bucket's site, found once (the list is read then).
        for (name, bucket) in buckets where bucket.first?.site.isEmpty == true {
            let site = publicSuffixes.site(of: name)
            buckets[name] = bucket.map { cookie in
                var cookie = cookie
                cookie.site = site
                return cookie
            }
        }
        let site = buckets[domain]?.first?.site ?? ""
        let inSite = buckets.values.reduce(0) { total, bucket in
            bucket.first?.site == site ? total + bucket.count : total
        }
        guard inSite > Self.maximumPerSite || count > Self.maximumCount else { return }
        var cookies = flattened
        Self.enforceLimits(&cookies, site: site, fromSecureOrigin: fromSecureOrigin, now: now) { publicSuffixes }
        replaceAll(with: cookies)
    }

    /// Removes every cookie.
    public func removeAll() {
        guard count > 0 else { return }
        replaceAll(with: [])
        persist()
    }

    // MARK: - The file

    /// Writes the store to its file now (it does after every change by itself).
    ///
    /// - Throws: ``CookieFileError`` when the file cannot be written, now or at the last change.
    public func save(now: Date = Date()) throws(CookieFileError) {
        guard let file else { return }
        let cookies = flattened.filter { !$0.hasExpired(at: now) }.sorted { $0.sequence < $1.sequence }
        try CookieFile.write(cookies, to: file)
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
        cookies.sorted { left, right in
            if left.path.utf8.count != right.path.utf8.count { return left.path.utf8.count > right.path.utf8.count }
            if left.created != right.created { return left.created < right.created }
            return left.sequence < right.sequence
        }
    }

    /// Drops expired cookies, then beyond a site's limit (the newest cookie's site, or every
    /// site) and beyond the total, the least recently sent, cookies without `Secure` first. A
    /// cleartext response never makes a secure cookie go: its own newest goes instead.
    /// Sites are found (with `suffixes`, read then) only when there are enough cookies for one
    /// to be over its limit.
    private static func enforceLimits(
        _ cookies: inout [Cookie],
        site: String?,
        fromSecureOrigin: Bool,
        now: Date,
        suffixes: () -> PublicSuffixList
    ) {
        cookies.removeAll { $0.hasExpired(at: now) }
        guard cookies.count > maximumPerSite else { return }
        if cookies.contains(where: \.site.isEmpty) {
            let list = suffixes()
            for index in cookies.indices where cookies[index].site.isEmpty {
                cookies[index].site = list.site(of: cookies[index].domain)
            }
        }
        var doomed = Set<Int>()
        func drop(_ excess: Int, among members: [Int]) {
            guard excess > 0 else { return }
            let order = members.filter { !doomed.contains($0) && (fromSecureOrigin || !cookies[$0].isSecure) }
                .sorted { a, b in
                    let (left, right) = (cookies[a], cookies[b])
                    if left.isSecure != right.isSecure { return !left.isSecure }
                    if left.lastAccess != right.lastAccess { return left.lastAccess < right.lastAccess }
                    return left.sequence < right.sequence
                }
            doomed.formUnion(order.prefix(excess))
        }
        let sites = Dictionary(grouping: cookies.indices) { cookies[$0].site }
        for (name, members) in sites where site == nil || name == site {
            drop(members.count - maximumPerSite, among: members)
        }
        drop(cookies.count - doomed.count - maximumCount, among: Array(cookies.indices))
        guard !doomed.isEmpty else { return }
        cookies = cookies.enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
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
    /// Lowercased, without IPv6 brackets.
    var host: String
    /// The path, without the query.
    var path: String

    init(scheme: String, host: String, path: String) {
        isSecure = ["https", "wss"].contains(scheme.lowercased())
        // A trailing dot is kept: `localhost.` is a name DNS may answer, not `localhost`.
        var host = Substring(host.lowercased())
        if host.first == "[", host.last == "]" { host = host.dropFirst().dropLast() }
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

    /// Whether `host` is an IP address in any form a resolver reads (`1.2.3`, `010.0.0.1`, `::1`).
    static func isIPAddress(_ host: String) -> Bool {
        var address = in_addr()
        return AddressPrefix.bytes(of: host) != nil || inet_aton(host, &address) != 0
    }
}
