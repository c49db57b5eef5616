import LibraryKit

/// Entity tags for search results, and `If-None-Match` (RFC 9110 §8.8.3, §13.1.2).
enum EntityTag {
    /// A strong tag for a page of `list`: the list's fingerprint and the page's place in it fix
    /// the body byte for byte, so no hashing of the body is needed.
    static func forPage<Item>(_ result: SearchResult, of list: SearchableList<Item>) -> String {
        "\"\(String(list.fingerprint, radix: 16))-\(result.page.lowerBound)-\(result.page.count)-\(result.total)\""
    }

    /// Whether an `If-None-Match` field value names `tag` or is `*`; comparison is weak, as the
    /// field requires: `W/"x"` matches `"x"`.
    static func ifNoneMatch(_ fieldValue: some StringProtocol, matches tag: String) -> Bool {
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
