/// Turns the packets of an `ls-remote` conversation into a ``RefAdvertisement``: the protocol v0
/// ref advertisement, or the protocol v2 capability advertisement and `ls-refs` response.
public struct AdvertisementReader: Sendable {
    /// Where the conversation is.
    public enum State: Sendable, Equatable {
        /// Reading the v0 refs, or the v2 capabilities.
        case advertisement
        /// v2: the capabilities are in; the client sends `ls-refs` and reads its response.
        case awaitingRefs
        /// Done.
        case finished
    }

    /// What has been read so far.
    public private(set) var advertisement = RefAdvertisement(protocolVersion: 0)
    /// Where the conversation is.
    public private(set) var state = State.advertisement
    /// The bytes of the packets read so far, length prefixes included.
    public private(set) var byteCount = 0
    private var isFirst = true
    private var sawCapabilities = false
    private let address: String
    private let limits: GitLimits

    /// A reader for the server at `address` (for messages) that allows at most `limits`.
    public init(address: String, limits: GitLimits = .default) {
        self.address = address
        self.limits = limits
    }

    /// Takes the next packet; returns the refs it completed, in order (a view of the end of
    /// `advertisement.refs`).
    ///
    /// - Throws: ``GitWireError/server(_:message:)`` for an `ERR` packet,
    ///   ``GitWireError/malformed(_:reason:)`` for a line that is not a ref;
    ///   ``GitWireError/limitExceeded(_:reason:)`` for more refs or bytes than the
    ///   ``GitLimits`` allow.
    @discardableResult
    public mutating func read(_ packet: PktLine) throws(GitWireError) -> ArraySlice<AdvertisedRef> {
        if case .data(let payload) = packet {
            byteCount += 4 + payload.count  // at most 65520 a packet: cannot overflow before the limit
        } else {
            byteCount += 4
        }
        try limits.check(bytes: byteCount, address: address)
        if let message = packet.errorMessage { throw .server(address, message: message) }
        let known = advertisement.refs.count
        switch state {
        case .finished:
            break
        case .advertisement:
            try readAdvertisement(packet)
        case .awaitingRefs:
            try readListedRef(packet)
        }
        return advertisement.refs[known...]
    }

    // MARK: - Protocol v0

    private mutating func readAdvertisement(_ packet: PktLine) throws(GitWireError) {
        guard case .data(let payload) = packet else {
            // v0 ends with a flush (an empty repository may send nothing else); v2's
            // capability advertisement ends with one too, and ls-refs follows.
            state = advertisement.protocolVersion == 2 ? .awaitingRefs : .finished
            return
        }
        let line = payload.last == UInt8(ascii: "\n") ? payload.dropLast() : payload[...]
        if isFirst {
            isFirst = false
            if line.elementsEqual("version 2".utf8) {
                advertisement.protocolVersion = 2
                return
            }
        }
        if advertisement.protocolVersion == 2 {
            try limits.check(lines: advertisement.capabilities.count + 1, address: address)
            advertisement.capabilities.append(String(decoding: line, as: UTF8.self))
            return
        }
        var refPart = line[...]
        if let nul = line.firstIndex(of: 0) {
            refPart = line[..<nul]
        }
        // Capabilities follow the first ref only, as git reads them: a server that repeats
        // them on every line does not multiply the symbolic refs kept.
        if let nul = line.firstIndex(of: 0), !sawCapabilities {
            sawCapabilities = true
            let capabilities = String(decoding: line[(nul + 1)...], as: UTF8.self)
            advertisement.capabilities = capabilities.split(separator: " ").map(String.init)
            for capability in advertisement.capabilities where capability.hasPrefix("symref=") {
                let value = capability.dropFirst(7)
                if let colon = value.firstIndex(of: ":") {
                    advertisement.symrefs.append((String(value[..<colon]), String(value[value.index(after: colon)...])))
                }
            }
        }
        if refPart.starts(with: "shallow ".utf8) {
            try limits.check(lines: advertisement.shallow.count + 1, address: address)
            advertisement.shallow.append(String(decoding: refPart.dropFirst(8), as: UTF8.self))
            return
        }
        let ref = try parseRef(refPart)
        if ref.name == "capabilities^{}" { return }  // an empty repository, the old way
        try append(ref)
    }

    // MARK: - Protocol v2 ls-refs

    private mutating func readListedRef(_ packet: PktLine) throws(GitWireError) {
        guard case .data(let payload) = packet else {
            state = .finished
            return
        }
        // <oid> <name>[ symref-target:<target>][ peeled:<oid>], or "unborn <name> symref-target:…".
        let line = payload.last == UInt8(ascii: "\n") ? payload.dropLast() : payload[...]
        let space = UInt8(ascii: " ")
        guard let afterID = line.firstIndex(of: space) else {
            throw .malformed(address, reason: "'\(String(decoding: line, as: UTF8.self))' is not a ref line")
        }
        let objectID = line[..<afterID]
        let isUnborn = objectID.elementsEqual("unborn".utf8)
        guard isUnborn || Self.isObjectID(objectID) else {
            throw .malformed(address, reason: "'\(String(decoding: objectID, as: UTF8.self))' is not an object id")
        }
        let rest = line[(afterID + 1)...]
        let afterName = rest.firstIndex(of: space) ?? rest.endIndex
        guard afterName > rest.startIndex else {
            throw .malformed(address, reason: "'\(String(decoding: line, as: UTF8.self))' has no ref name")
        }
        let name = String(decoding: rest[..<afterName], as: UTF8.self)
        try append(AdvertisedRef(objectID: isUnborn ? "" : String(decoding: objectID, as: UTF8.self), name: name))
        for attribute in rest[afterName...].split(separator: space) {
            if attribute.starts(with: "symref-target:".utf8) {
                try limits.check(lines: advertisement.symrefs.count + 1, address: address)
                advertisement.symrefs.append((name, String(decoding: attribute.dropFirst(14), as: UTF8.self)))
            } else if attribute.starts(with: "peeled:".utf8) {
                let peeledID = attribute.dropFirst(7)
                guard Self.isObjectID(peeledID) else {
                    throw .malformed(
                        address,
                        reason: "'\(String(decoding: peeledID, as: UTF8.self))' is not an object id"
                    )
                }
                try append(AdvertisedRef(objectID: String(decoding: peeledID, as: UTF8.self), name: name + "^{}"))
            }
        }
    }

    /// The `ls-refs` request `git ls-remote` sends for these options once the capabilities
    /// are in (``State/awaitingRefs``): the server's object format, and `unborn` only when
    /// the server offers it.
    public func lsRefsRequest(heads: Bool, tags: Bool, symref: Bool) throws(GitWireError) -> [UInt8] {
        let capabilities = advertisement.capabilities
        let format = capabilities.first { $0.hasPrefix("object-format=") }.map { String($0.dropFirst(14)) }
        let unborn = capabilities.contains { capability in
            capability.hasPrefix("ls-refs=") && capability.dropFirst(8).split(separator: " ").contains("unborn")
        }
        return try wrap(address) { () throws(PktLineError) in
            try Self.lsRefsRequest(heads: heads, tags: tags, symref: symref, objectFormat: format, unborn: unborn)
        }
    }

    /// The `ls-refs` request `git ls-remote` sends for these options.
    ///
    /// - Parameters:
    ///   - heads: Ask for the refs under `refs/heads/`.
    ///   - tags: Ask for the refs under `refs/tags/` (with `heads`, both; with neither, all).
    ///   - symref: Ask for the targets of symbolic refs.
    ///   - objectFormat: The server's `object-format` capability, if it has one.
    ///   - unborn: Whether to ask for unborn refs (an empty repository's `HEAD`); send it only to
    ///     a server whose `ls-refs` capability lists `unborn`.
    public static func lsRefsRequest(
        heads: Bool,
        tags: Bool,
        symref: Bool,
        objectFormat: String?,
        unborn: Bool = true
    ) throws(PktLineError)
        -> [UInt8]
    {
        var bytes = try PktLine.data(Array("command=ls-refs\n".utf8)).encoded()
        if let objectFormat { bytes += try PktLine.data(Array("object-format=\(objectFormat)\n".utf8)).encoded() }
        bytes += try PktLine.delimiter.encoded()
        bytes += try PktLine.data(Array("peel\n".utf8)).encoded()
        if symref { bytes += try PktLine.data(Array("symrefs\n".utf8)).encoded() }
        if unborn { bytes += try PktLine.data(Array("unborn\n".utf8)).encoded() }
        if heads { bytes += try PktLine.data(Array("ref-prefix refs/heads/\n".utf8)).encoded() }
        if tags { bytes += try PktLine.data(Array("ref-prefix refs/tags/\n".utf8)).encoded() }
        bytes += try PktLine.flush.encoded()
        return bytes
    }

    // MARK: - Lines

    /// Adds `ref`, unless that makes more than the limit allows.
    private mutating func append(_ ref: AdvertisedRef) throws(GitWireError) {
        try limits.check(refs: advertisement.refs.count + 1, address: address)
        advertisement.refs.append(ref)
    }

    /// `<object id> <name>`, read as bytes: an advertisement can hold many thousands.
    private func parseRef(_ line: ArraySlice<UInt8>) throws(GitWireError) -> AdvertisedRef {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else {
            throw .malformed(
                address,
                reason: "'\(String(decoding: line, as: UTF8.self))' is not '<object id> <ref name>'"
            )
        }
        let objectID = line[..<space]
        guard Self.isObjectID(objectID) else {
            throw .malformed(address, reason: "'\(String(decoding: objectID, as: UTF8.self))' is not an object id")
        }
        guard space + 1 < line.endIndex else {
            throw .malformed(address, reason: "'\(String(decoding: line, as: UTF8.self))' has no ref name")
        }
        return AdvertisedRef(
            objectID: String(decoding: objectID, as: UTF8.self),
            name: String(decoding: line[(space + 1)...], as: UTF8.self)
        )
    }

    static func isObjectID(_ bytes: some Collection<UInt8>) -> Bool {
        (bytes.count == 40 || bytes.count == 64)
            && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
