extension RefAdvertisement {
    /// The advertisement `git ls-remote --symref` printed as `listing`: `ref: <target>\t<name>`
    /// lines for symbolic refs, `<object id>\t<name>` lines for the refs, in order.
    ///
    /// - Throws: ``GitWireError/malformed(_:reason:)`` naming the first line that is neither.
    package init(lsRemoteListing listing: String, address: String) throws(GitWireError) {
        self.init(protocolVersion: 0)
        for line in listing.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, !fields[1].isEmpty else {
                throw .malformed(
                    address,
                    reason: "'\(line.prefix(80))' is neither 'ref: <target>\\t<name>' nor '<object id>\\t<name>'"
                )
            }
            if fields[0].hasPrefix("ref: ") {
                symrefs.append((name: String(fields[1]), target: String(fields[0].dropFirst(5))))
            } else if AdvertisementReader.isObjectID(fields[0].utf8) {
                refs.append(AdvertisedRef(objectID: String(fields[0]), name: String(fields[1])))
            } else {
                throw .malformed(address, reason: "'\(fields[0].prefix(80))' is not an object id")
            }
        }
    }

    /// What a smart HTTP server answers to `GET …/info/refs?service=git-upload-pack` for these
    /// refs in protocol v0: the service line and its flush, then the refs, the first with the
    /// capabilities (`symref=` for each symbolic ref, then `agent`), and a flush.
    package func smartHTTPAdvertisement(agent: String) throws(PktLineError) -> [UInt8] {
        var bytes = try PktLine.data(Array("# service=git-upload-pack\n".utf8)).encoded()
        bytes += try PktLine.flush.encoded()
        let capabilities = (symrefs.map { "symref=\($0.name):\($0.target)" } + ["agent=\(agent)"])
            .joined(separator: " ")
        // An empty repository advertises its capabilities on a ref that is not one.
        let first = refs.first ?? AdvertisedRef(objectID: String(repeating: "0", count: 40), name: "capabilities^{}")
        bytes += try PktLine.data(Array("\(first.objectID) \(first.name)\0\(capabilities)\n".utf8)).encoded()
        for ref in refs.dropFirst() {
            bytes += try PktLine.data(Array("\(ref.objectID) \(ref.name)\n".utf8)).encoded()
        }
        bytes += try PktLine.flush.encoded()
        return bytes
    }
}
