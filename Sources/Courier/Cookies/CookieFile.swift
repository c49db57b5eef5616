import Foundation

/// A cookie file that cannot be read or written: which, and why.
public struct CookieFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// What is wrong, such as "line 3 has 5 fields, not 7".
    public var reason: String

    /// A cookie file error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// One line for a person; never a cookie's value.
    public var description: String {
        "The cookie file \(path) cannot be used: \(reason). Give another file, or check this one's place and permissions."
    }
}

/// Cookies in the file format curl and Netscape browsers share: a cookie a line, seven fields
/// separated by tabs — domain, whether hosts under it get it, path, secure, expiry in seconds
/// since 1970 (0 for a session cookie), name, value — with `#HttpOnly_` before the domain of an
/// `HttpOnly` one.
enum CookieFile {
    /// The largest file read: 3,000 cookies of 4 KiB, with room to spare.
    static let maximumSize = 16 << 20

    /// The cookies in `file` that have not expired at `now`; none when it does not exist.
    static func read(_ file: URL, now: Date) throws(CookieFileError) -> [Cookie] {
        func failure(_ reason: String) -> CookieFileError { CookieFileError(path: file.path, reason: reason) }
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        guard let data = PrivateFile.read(file.path, limit: maximumSize) else {
            throw failure("it is not a regular file this user can read, or it is larger than 16 MiB")
        }
        guard let cookies = parse(data, now: now) else {
            throw failure("line \(firstBadLine(in: data)) is not a cookie in curl's format")
        }
        return cookies
    }

    /// The cookies in a file's bytes that have not expired at `now`, or `nil` when a line is
    /// not a cookie (nor a comment or blank).
    static func parse(_ data: Data, now: Date) -> [Cookie]? {
        var cookies: [Cookie] = []
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            switch entry(in: line, now: now) {
            case .cookie(let cookie): if !cookie.hasExpired(at: now) { cookies.append(cookie) }
            case .nothing: continue
            case .invalid: return nil
            }
        }
        return cookies
    }

    /// The number of the first line that is not a cookie, a comment or blank (1 when none is).
    private static func firstBadLine(in data: Data) -> Int {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let index = lines.firstIndex { line in
            if case .invalid = entry(in: line, now: .distantPast) { return true }
            return false
        }
        return index.map { lines.distance(from: lines.startIndex, to: $0) + 1 } ?? 1
    }

    private enum Entry {
        case cookie(Cookie)
        case nothing
        case invalid
    }

    private static func entry(in line: Data.SubSequence, now: Date) -> Entry {
        var text = Substring(String(decoding: line, as: UTF8.self))
        if text.last == "\r" { text = text.dropLast() }
        var isHTTPOnly = false
        if text.hasPrefix("#HttpOnly_") {
            isHTTPOnly = true
            text = text.dropFirst("#HttpOnly_".count)
        } else if text.hasPrefix("#") || text.allSatisfy(\.isWhitespace) {
            return .nothing
        }
        return cookie(in: text, isHTTPOnly: isHTTPOnly, now: now).map(Entry.cookie) ?? .invalid
    }

    /// The cookie a line gives, or `nil` when the line is not one: fields that curl writes, a
    /// valid domain and path, a name and value without control characters, 4 KiB at most.
    private static func cookie(in line: Substring, isHTTPOnly: Bool, now: Date) -> Cookie? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        // curl writes 7 fields; an empty value may have lost its tab.
        guard fields.count == 7 || fields.count == 6 else { return nil }
        var domain = fields[0].lowercased()
        let includesSubdomains = fields[1] == "TRUE"
        if domain.hasPrefix(".") { domain.removeFirst() }
        let path = String(fields[2])
        let name = String(fields[5])
        let value = fields.count == 7 ? String(fields[6]) : ""
        guard !domain.isEmpty, RequestTarget.problem(withHost: domain) == nil || CookieTarget.isIPAddress(domain),
            ["TRUE", "FALSE"].contains(fields[1]), ["TRUE", "FALSE"].contains(fields[3]), path.hasPrefix("/"),
            let seconds = Int64(fields[4]), seconds >= 0, seconds < 253_402_300_800,  // before year 10000
            !(name + value).utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }),
            name.utf8.count + value.utf8.count <= SetCookie.maximumPairLength, !(name.isEmpty && value.isEmpty)
        else { return nil }
        return Cookie(
            name: name,
            value: value,
            domain: domain,
            isHostOnly: !includesSubdomains,
            path: path,
            isSecure: fields[3] == "TRUE",
            isHTTPOnly: isHTTPOnly,
            // No cookie lives more than 400 days, whoever wrote the file.
            expires: seconds == 0
                ? nil : min(Date(timeIntervalSince1970: TimeInterval(seconds)), now + SetCookie.maximumLifetime),
            created: now
        )
    }

    /// Writes `cookies` to `file` in one step, readable by its owner only.
    static func write(_ cookies: [Cookie], to file: URL) throws(CookieFileError) {
        var text = """
            # Netscape HTTP Cookie File
            # Written by Courier (curl reads it too). It holds credentials: keep it private.


            """
        for cookie in cookies {
            // The format has no way to write a tab inside a field: such a cookie lives in
            // memory only.
            guard !(cookie.name + cookie.value + cookie.path).contains("\t") else { continue }
            let expiry = cookie.expires.map { max(1, Int64($0.timeIntervalSince1970.rounded(.up))) } ?? 0
            text +=
                [
                    (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? "" : ".") + cookie.domain,
                    cookie.isHostOnly ? "FALSE" : "TRUE",
                    cookie.path,
                    cookie.isSecure ? "TRUE" : "FALSE",
                    String(expiry),
                    cookie.name,
                    cookie.value,
                ].joined(separator: "\t") + "\n"
        }
        do {
            try PrivateFile.replace(file.path, with: Data(text.utf8))
        } catch {
            throw CookieFileError(path: file.path, reason: "\(error)")
        }
    }
}
