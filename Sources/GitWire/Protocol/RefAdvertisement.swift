/// One advertised ref, as `git ls-remote` prints it: an object id and a name (peeled tags are
/// their own lines, named `<tag>^{}`).
public struct AdvertisedRef: Sendable, Hashable {
    /// The object id: 40 hex digits (SHA-1) or 64 (SHA-256).
    public var objectID: String
    /// `HEAD`, `refs/heads/main`, `refs/tags/v1.0^{}`….
    public var name: String

    /// A ref.
    public init(objectID: String, name: String) {
        self.objectID = objectID
        self.name = name
    }

    /// Whether this is a peeled tag line.
    public var isPeeled: Bool { name.hasSuffix("^{}") }
}

/// What a server advertised: the refs in order, the symbolic refs, capabilities and shallow
/// commits.
public struct RefAdvertisement: Sendable, Hashable {
    /// The protocol version the server spoke (0 or 2).
    public var protocolVersion: Int
    /// The refs, in the order the server sent them.
    public var refs: [AdvertisedRef] = []
    /// Symbolic refs: `HEAD` → `refs/heads/main`.
    public var symrefs: [(name: String, target: String)] = []
    /// The capabilities (v0: after the first ref; v2: the capability advertisement).
    public var capabilities: [String] = []
    /// `shallow` object ids (v0).
    public var shallow: [String] = []

    /// An empty advertisement.
    public init(protocolVersion: Int) {
        self.protocolVersion = protocolVersion
    }

    /// Equal when every part is equal, symbolic refs in order.
    public static func == (left: Self, right: Self) -> Bool {
        left.protocolVersion == right.protocolVersion && left.refs == right.refs
            && left.symrefs.map { [$0.name, $0.target] } == right.symrefs.map { [$0.name, $0.target] }
            && left.capabilities == right.capabilities && left.shallow == right.shallow
    }

    /// Hashes the version and the refs.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(protocolVersion)
        hasher.combine(refs)
    }

    // MARK: - Output

    /// What `git ls-remote` prints for these refs with the same options: one line per ref,
    /// each ending in a newline.
    ///
    /// ```swift
    /// print(advertisement.lsRemoteOutput(heads: true), terminator: "")
    /// ```
    public func lsRemoteOutput(
        heads: Bool = false,
        tags: Bool = false,
        refsOnly: Bool = false,
        symref: Bool = false,
        patterns: [RefPattern] = []
    )
        -> String
    {
        let symbolic = symbolicTargets
        var output = ""
        output.reserveCapacity(refs.count * 72)
        for ref in refs where Self.isListed(ref, heads: heads, tags: tags, refsOnly: refsOnly, patterns: patterns) {
            if symref, let target = symbolic[ref.name] {
                output += "ref: "
                output += target
                output += "\t"
                output += ref.name
                output += "\n"
            }
            output += ref.objectID
            output += "\t"
            output += ref.name
            output += "\n"
        }
        return output
    }

    /// The refs `git ls-remote` lists with these options, in order: under `refs/heads/` or
    /// `refs/tags/` when asked, with `refsOnly` only well-formed names under `refs/` (no peeled
    /// tags, pseudo-refs or one-level names such as `refs/stash`), ending with one
    /// of `patterns` when there are any, and never an unborn ref (protocol v2 names them with
    /// no object id; git prints nothing for them).
    public func listed(
        heads: Bool = false,
        tags: Bool = false,
        refsOnly: Bool = false,
        patterns: [RefPattern] = []
    ) -> [AdvertisedRef] {
        refs.filter { Self.isListed($0, heads: heads, tags: tags, refsOnly: refsOnly, patterns: patterns) }
    }

    /// Whether `git ls-remote` lists `ref` with these options; see
    /// ``listed(heads:tags:refsOnly:patterns:)``.
    private static func isListed(
        _ ref: AdvertisedRef,
        heads: Bool,
        tags: Bool,
        refsOnly: Bool,
        patterns: [RefPattern]
    ) -> Bool {
        if heads || tags {
            let matches = (heads && ref.name.hasPrefix("refs/heads/")) || (tags && ref.name.hasPrefix("refs/tags/"))
            guard matches else { return false }
        }
        // `--refs`: git keeps a name under `refs/` whose rest is a well-formed ref name of two
        // components or more, which leaves out peeled tags (`^{}`) and `refs/stash`.
        if refsOnly, !ref.name.hasPrefix("refs/") || !Self.isWellFormed(ref.name.utf8.dropFirst(5)) { return false }
        return !ref.objectID.isEmpty && RefPattern.matches(ref.name, anyOf: patterns)
    }

    /// git's `check_refname_format(name, 0)`: components separated by `/`, none empty, none
    /// starting with `.` or ending with `.lock`; no `..`, `@{`, control character, space, `~`,
    /// `^`, `:`, `?`, `*`, `[` or `\`; not `@`, not ending with `.`; two components or more.
    static func isWellFormed(_ name: Substring.UTF8View) -> Bool {
        guard !name.elementsEqual("@".utf8), name.last != UInt8(ascii: ".") else { return false }
        var components = 0
        for component in name.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard !component.isEmpty, component.first != UInt8(ascii: "."), !component.elementsEqual(".lock".utf8),
                !(component.count > 5 && component.suffix(5).elementsEqual(".lock".utf8))
            else { return false }
            var last: UInt8 = 0
            for byte in component {
                switch byte {
                case 0x00...0x1F, 0x7F, UInt8(ascii: " "), UInt8(ascii: "~"), UInt8(ascii: "^"), UInt8(ascii: ":"),
                    UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "\\"):
                    return false
                case UInt8(ascii: ".") where last == UInt8(ascii: "."):
                    return false
                case UInt8(ascii: "{") where last == UInt8(ascii: "@"):
                    return false
                default:
                    last = byte
                }
            }
            components += 1
        }
        return components >= 2
    }

    /// What each symbolic ref points to, the first the server named for it.
    public var symbolicTargets: [String: String] {
        var symbolic: [String: String] = [:]
        for entry in symrefs where symbolic[entry.name] == nil { symbolic[entry.name] = entry.target }
        return symbolic
    }
}
