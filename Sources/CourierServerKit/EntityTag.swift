package import Hummingbird

/// `If-None-Match` (RFC 9110 §8.8.3, §13.1.2): whether the client already has a tag.
package enum EntityTag {
    /// Whether the request's `If-None-Match` (all its fields) names `tag`: the client's copy is current.
    package static func request(_ request: Request, alreadyHas tag: String) -> Bool {
        guard let fieldValue = request.headers[.ifNoneMatch] else { return false }
        return ifNoneMatch(fieldValue, matches: tag)
    }

    /// Whether an `If-None-Match` field value names `tag` or is `*`; comparison is weak, as the
    /// field requires: `W/"x"` matches `"x"`.
    package static func ifNoneMatch(_ fieldValue: some StringProtocol, matches tag: String) -> Bool {
        let opaqueTag = tag.utf8
        var bytes = fieldValue.utf8[...]
        while true {
            while let first = bytes.first,
                first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") || first == UInt8(ascii: ",")
            {
                bytes.removeFirst()
            }
            guard let first = bytes.first else { return false }
            if first == UInt8(ascii: "*") { return true }
            if bytes.starts(with: "W/".utf8) { bytes.removeFirst(2) }
            guard bytes.first == UInt8(ascii: "\"") else { return false }
            // An entity tag is a quoted run of anything but a quote: commas included.
            guard let closing = bytes.dropFirst().firstIndex(of: UInt8(ascii: "\"")) else { return false }
            let candidate = bytes[bytes.startIndex...closing]
            if candidate.elementsEqual(opaqueTag) { return true }
            bytes = bytes[bytes.index(after: closing)...]
        }
    }
}
