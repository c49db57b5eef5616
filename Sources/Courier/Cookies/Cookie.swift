public import Foundation

/// A cookie as a ``CookieStore`` keeps it (RFC 6265bis §5.7): where it may go, and until when.
public struct Cookie: Sendable, Hashable, CustomStringConvertible {
    /// How a cookie may travel with requests another site starts (`SameSite`). Courier is not
    /// a browser: every request it sends is its own, so it keeps the attribute and sends the
    /// cookie by the other rules.
    public enum SameSite: String, Sendable, Hashable {
        /// `SameSite=Strict`.
        case strict
        /// `SameSite=Lax`.
        case lax
        /// `SameSite=None`.
        case none
        /// No `SameSite` attribute, or one with another value.
        case unspecified
    }

    /// The name; empty for a cookie set as a bare value.
    public var name: String
    /// The value.
    public var value: String
    /// The host that set it (``isHostOnly``) or the domain its `Domain` attribute named:
    /// lowercased ASCII, without a leading dot.
    public var domain: String
    /// Whether it goes to ``domain`` itself only, not to the hosts under it.
    public var isHostOnly: Bool
    /// The path it goes to, and the paths under it.
    public var path: String
    /// Whether it goes over HTTPS only.
    public var isSecure: Bool
    /// Whether a browser hides it from scripts (`HttpOnly`); kept and written, not otherwise used.
    public var isHTTPOnly: Bool
    /// Its `SameSite` attribute.
    public var sameSite: SameSite
    /// When it expires; `nil` for a session cookie.
    public var expires: Date?
    /// When it was first stored (an update keeps it): among cookies of the same path length,
    /// the older goes first.
    public var created: Date
    /// When it was last sent: the least recently used go first when a limit is reached.
    public var lastAccess: Date
    /// The site it counts against: its domain's registrable domain (set by the store).
    var site = ""
    /// Its place in the order the store received it, which breaks ties in the sending order.
    var sequence = 0

    /// A cookie.
    public init(
        name: String,
        value: String,
        domain: String,
        isHostOnly: Bool = true,
        path: String = "/",
        isSecure: Bool = false,
        isHTTPOnly: Bool = false,
        sameSite: SameSite = .unspecified,
        expires: Date? = nil,
        created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.expires = expires
        self.created = created
        self.lastAccess = created
    }

    /// `name=value` as a `Cookie` header carries it (the value alone for an empty name).
    var pair: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// Where it goes, never its value: `name for .example.com/path (secure, until …)`.
    public var description: String {
        var flags: [String] = []
        if isSecure { flags.append("secure") }
        if isHTTPOnly { flags.append("HttpOnly") }
        flags.append(expires.map { "until \($0)" } ?? "session")
        return "\(name) for \(isHostOnly ? "" : ".")\(domain)\(path) (\(flags.joined(separator: ", ")))"
    }
}

/// A `Set-Cookie` field read by the parsing algorithm of RFC 6265bis §5.6: what the server
/// asked for, before the storage rules (``CookieStore``) judge it against the request.
package struct SetCookie: Sendable, Hashable {
    var name: String
    var value: String
    /// `Expires`, or for `Max-Age` the time it gives (`distantPast` for zero or less).
    var expires: Date?
    /// The `Domain` attribute, lowercased, without a leading dot.
    var domain: String?
    /// The `Path` attribute, when it starts with `/`.
    var path: String?
    var isSecure = false
    var isHTTPOnly = false
    var sameSite = Cookie.SameSite.unspecified

    /// The longest name and value together, and the longest attribute value (RFC 6265bis §5.6).
    static let maximumPairLength = 4096
    static let maximumAttributeLength = 1024
    /// The latest expiry a cookie may have: 400 days on (RFC 6265bis §5.6.1).
    static let maximumLifetime: TimeInterval = 400 * 86_400

    /// The cookie `field` sets, as of `now`; `nil` for one to ignore: a control character,
    /// neither name nor value, or a name and value longer than 4096 bytes.
    init?(_ field: String, now: Date) {
        let bytes = field.utf8
        guard !bytes.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else { return nil }
        let parts = field.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let pair = parts[0]
        if let equals = pair.firstIndex(of: "=") {
            name = Self.trimmed(pair[..<equals])
            value = Self.trimmed(pair[pair.index(after: equals)...])
        } else {
            name = ""
            value = Self.trimmed(pair)
        }
        guard !(name.isEmpty && value.isEmpty), name.utf8.count + value.utf8.count <= Self.maximumPairLength else {
            return nil
        }
        var maxAge: Date?
        for attribute in parts.count > 1 ? parts[1].split(separator: ";") : [] {
            let (key, argument): (String, String)
            if let equals = attribute.firstIndex(of: "=") {
                key = Self.trimmed(attribute[..<equals]).lowercased()
                argument = Self.trimmed(attribute[attribute.index(after: equals)...])
            } else {
                key = Self.trimmed(attribute).lowercased()
                argument = ""
            }
            guard argument.utf8.count <= Self.maximumAttributeLength else { continue }
            switch key {
            case "expires":
                if let date = CookieDate.parse(argument) { expires = min(date, now + Self.maximumLifetime) }
            case "max-age":
                if let seconds = Self.maxAge(argument) {
                    maxAge = seconds <= 0 ? .distantPast : now + min(TimeInterval(seconds), Self.maximumLifetime)
                }
            case "domain":
                // An empty one (or a lone dot) makes the cookie host-only again.
                var domain = Substring(argument)
                if domain.first == "." { domain = domain.dropFirst() }
                self.domain = domain.isEmpty ? nil : IDNA.asciiHost(domain.lowercased())
            case "path":
                path = argument.first == "/" ? argument : nil
            case "secure": isSecure = true
            case "httponly": isHTTPOnly = true
            case "samesite": sameSite = Cookie.SameSite(rawValue: argument.lowercased()) ?? .unspecified
            default: break
            }
        }
        // Max-Age wins over Expires, whichever comes first.
        if let maxAge { expires = maxAge }
    }

    /// The `Set-Cookie` fields in `value`, where Foundation joined several with `, ` (as it
    /// joins every repeated field): split at each comma followed by `name=`, which an `Expires`
    /// date's comma (`Wed, 09 Jun 2021 …`) is not.
    package static func fields(inCombined value: String) -> [String] {
        var fields: [String] = []
        var start = value.startIndex
        var index = value.startIndex
        while let comma = value[index...].firstIndex(of: ",") {
            index = value.index(after: comma)
            let next = value[index...].drop { $0 == " " || $0 == "\t" }
            guard let end = next.firstIndex(where: { "=;,".contains($0) }), next[end] == "=",
                !next[..<end].isEmpty, !next[..<end].contains(where: { $0 == " " || $0 == "\t" })
            else { continue }
            fields.append(String(value[start..<comma]))
            start = next.startIndex
        }
        fields.append(String(value[start...]))
        return fields
    }

    /// A `Max-Age` value: an optional `-` and digits, clamped to what an `Int` holds.
    private static func maxAge(_ text: String) -> Int? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        if negative { return -1 }
        return Int(digits) ?? Int.max
    }

    /// Without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> String {
        String(text.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
    }
}
