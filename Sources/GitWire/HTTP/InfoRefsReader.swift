/// Reads the answer to `GET …/info/refs?service=git-upload-pack` as it arrives: git's smart HTTP
/// advertisement (the `# service=` header, then the refs of protocol v0 or the capabilities of
/// v2), or the dumb protocol's `info/refs` file.
///
/// ```swift
/// let contentType = response.head.headerFields[.contentType]
/// var reader = try InfoRefsReader(contentType: contentType, address: url.description)
/// for try await chunk in response.body {
///     for ref in try reader.read(chunk) { print(ref.objectID, ref.name) }
/// }
/// try reader.finish()
/// ```
///
/// Memory stays bounded by one packet or one line (at most 65520 bytes) beyond what the
/// advertisement holds, and the ``GitLimits`` bound that and the bytes read.
public struct InfoRefsReader: Sendable {
    /// How the server answered.
    public enum Kind: Sendable, Hashable {
        /// Smart HTTP: pkt-lines, as on `git://`.
        case smart
        /// The dumb protocol: the repository's `info/refs` file, `<object id>\t<name>` lines.
        case dumb
    }

    /// How the server answered, read from its `Content-Type`.
    public let kind: Kind
    /// The reader of the advertisement's packets (smart HTTP); it goes on reading the
    /// `ls-refs` answer of protocol v2.
    public private(set) var packets: AdvertisementReader
    /// The refs of a dumb `info/refs` file, read so far.
    public private(set) var dumbRefs: [AdvertisedRef] = []
    /// The bytes of the body read so far.
    public private(set) var byteCount = 0
    private var decoder = PktLineDecoder()
    private var header = Header.expected
    private var line: [UInt8] = []
    private let address: String
    private let limits: GitLimits

    private enum Header {
        case expected, skipping, done
    }

    /// The media type of a smart HTTP advertisement for `git-upload-pack`.
    public static let advertisementType = "application/x-git-upload-pack-advertisement"

    /// The longest line of a dumb `info/refs` file: a pkt-line's worth.
    static let longestLine = PktLine.maximumLength

    /// A reader for an answer with `contentType`, from the server at `address`.
    ///
    /// - Throws: ``GitWireError/malformed(_:reason:)`` for an HTML page (a login or error page
    ///   where a repository was expected).
    public init(contentType: String?, address: String, limits: GitLimits = .default) throws(GitWireError) {
        let mediaType = (contentType ?? "").prefix { $0 != ";" }.trimmingSpaces.lowercased()
        self.address = address
        self.limits = limits
        self.packets = AdvertisementReader(address: address, limits: limits)
        if mediaType == Self.advertisementType {
            kind = .smart
        } else if mediaType == "text/html" || mediaType == "application/xhtml+xml" {
            throw .malformed(
                address,
                reason: "it answered with an HTML page (\(mediaType)), not a git repository's refs; check the address"
            )
        } else {
            kind = .dumb
        }
    }

    /// Whether the advertisement is complete: the refs of protocol v0, or the capabilities of
    /// v2 (``AdvertisementReader/State/awaitingRefs``). A dumb file is complete only at its end.
    public var isComplete: Bool { kind == .smart && packets.state != .advertisement }

    /// Takes the next piece of the body; returns the refs it completed, in order (a view of the
    /// end of `packets.advertisement.refs`; none for a dumb file, whose refs come whole at
    /// ``finish()``, after `HEAD` is known).
    ///
    /// - Throws: ``GitWireError`` for a malformed answer, an `ERR` packet, or more than the
    ///   limits allow.
    public mutating func read(_ bytes: some Collection<UInt8>) throws(GitWireError) -> ArraySlice<AdvertisedRef> {
        byteCount += bytes.count  // a collection in memory: far from overflowing
        try limits.check(bytes: byteCount, address: address)
        switch kind {
        case .dumb:
            try readDumb(bytes)
            return []
        case .smart:
            decoder.append(bytes)
            let known = packets.advertisement.refs.count
            while !isComplete, let packet = try wrap(address, { () throws(PktLineError) in try decoder.next() }) {
                try readSmart(packet)
            }
            return packets.advertisement.refs[known...]
        }
    }

    /// Ends the body.
    ///
    /// - Throws: ``GitWireError/malformed(_:reason:)`` when a smart advertisement stopped before
    ///   its end, or a dumb file in the middle of a line.
    public mutating func finish() throws(GitWireError) {
        switch kind {
        case .smart:
            guard isComplete else {
                throw .malformed(address, reason: "the advertisement ended before the flush packet that ends it")
            }
        case .dumb:
            if !line.isEmpty { try readDumbLine(line[...]) }
            line = []
        }
    }

    /// The advertisement of a repository served over the dumb protocol, as git lists it: `HEAD`
    /// first, from the `HEAD` file's bytes (`ref: <name>`, resolved against the refs, or an
    /// object id), then the `info/refs` lines in order. Without a `HEAD` file, or when it names a
    /// ref that is not there, `HEAD` is left out.
    ///
    /// - Throws: ``GitWireError/limitExceeded(_:reason:)`` when `HEAD` makes one ref more than
    ///   the limits allow.
    public func dumbAdvertisement(head: [UInt8]?) throws(GitWireError) -> RefAdvertisement {
        var advertisement = RefAdvertisement(protocolVersion: 0)
        var text = head ?? []
        while let last = text.last, last == 0x20 || (0x09...0x0D).contains(last) { text.removeLast() }
        if text.starts(with: "ref: ".utf8) {
            let target = String(decoding: text.dropFirst(5), as: UTF8.self)
            if let resolved = dumbRefs.first(where: { $0.name == target }) {
                advertisement.refs.append(AdvertisedRef(objectID: resolved.objectID, name: "HEAD"))
                advertisement.symrefs.append((name: "HEAD", target: target))
            }
        } else if AdvertisementReader.isObjectID(text) {
            advertisement.refs.append(AdvertisedRef(objectID: String(decoding: text, as: UTF8.self), name: "HEAD"))
        }
        try limits.check(refs: advertisement.refs.count + dumbRefs.count, address: address)
        advertisement.refs += dumbRefs
        return advertisement
    }

    // MARK: - Smart HTTP

    private mutating func readSmart(_ packet: PktLine) throws(GitWireError) {
        switch header {
        case .expected:
            if let message = packet.errorMessage { throw .server(address, message: message) }
            guard let text = packet.text else {
                throw .malformed(address, reason: "expected '# service=git-upload-pack', got a flush packet")
            }
            if text == "# service=git-upload-pack" {
                header = .skipping
                return
            }
            guard text == "version 2" else {
                throw .malformed(
                    address,
                    reason: "expected '# service=git-upload-pack', got '\(String(text.prefix(80)))'"
                )
            }
            header = .done
            try packets.read(packet)
        case .skipping:
            // Lines of metadata may follow the service line, up to a flush.
            if packet == .flush { header = .done }
        case .done:
            try packets.read(packet)
        }
    }

    // MARK: - Dumb HTTP

    private mutating func readDumb(_ bytes: some Collection<UInt8>) throws(GitWireError) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                try readDumbLine(line[...])
                line.removeAll(keepingCapacity: true)
            } else {
                guard line.count < Self.longestLine else {
                    throw .malformed(address, reason: "an info/refs line is longer than \(Self.longestLine) bytes")
                }
                line.append(byte)
            }
        }
    }

    private mutating func readDumbLine(_ line: ArraySlice<UInt8>) throws(GitWireError) {
        guard !line.isEmpty else { return }
        guard let tab = line.firstIndex(of: UInt8(ascii: "\t")), AdvertisementReader.isObjectID(line[..<tab]),
            tab + 1 < line.endIndex
        else {
            throw .malformed(
                address,
                reason: "'\(String(decoding: line.prefix(80), as: UTF8.self))' is not '<object id>\\t<ref name>': "
                    + "this is not a git repository"
            )
        }
        try limits.check(refs: dumbRefs.count + 1, address: address)
        dumbRefs.append(
            AdvertisedRef(
                objectID: String(decoding: line[..<tab], as: UTF8.self),
                name: String(decoding: line[(tab + 1)...], as: UTF8.self)
            )
        )
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
