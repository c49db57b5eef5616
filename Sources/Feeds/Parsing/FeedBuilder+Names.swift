import CourierXML
import Foundation

/// Names, attributes and links: namespaces by prefix, attribute values by name, URLs against
/// their base.
extension FeedBuilder {
    /// The namespace URI (lowercased), namespace and local name of an element; an undeclared
    /// prefix that feeds commonly use is taken to mean its usual namespace (not well-formed).
    /// Core names are lowercased, since RSS is written in every case.
    mutating func resolve(_ qualifiedName: String) -> (uri: String, namespace: FeedNamespace, local: String) {
        var uri = ""
        var namespace = FeedNamespace.core
        var local = qualifiedName
        if let colon = qualifiedName.utf8.firstIndex(of: UInt8(ascii: ":")) {
            let prefix = String(Substring(qualifiedName.utf8[..<colon]))
            local = String(Substring(qualifiedName.utf8[qualifiedName.utf8.index(after: colon)...]))
            if let declared = namespaces[prefix]?.last {
                (uri, namespace) = declared
            } else {
                if problem == nil { problem = "the prefix \(prefix) is not declared" }
                uri = FeedNamespace.wellKnownPrefixes[prefix.lowercased()]?.lowercased() ?? ""
                namespace = FeedNamespace(uri: uri)
            }
            // An unknown prefix names no namespace: read by its local name.
            if uri.isEmpty { namespace = .core }
        } else if let declared = namespaces[""]?.last {
            (uri, namespace) = declared
            // An unprefixed element in a namespace this does not know is read by its local name,
            // as feedparser does (feeds invent namespace URIs for RSS and Atom).
            if namespace == .other { namespace = .core }
        }
        if namespace == .core, local.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { local = local.lowercased() }
        return (uri, namespace, local)
    }

    /// The value of the first attribute named `name`: `xml:base`, `xml:lang` and `rdf:about` by
    /// their namespace, whatever the prefix; other names unprefixed, in any case.
    func value(_ name: String, in attributes: [XMLToken.Attribute]) -> String? {
        guard !attributes.isEmpty else { return nil }
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return Self.value(name, in: attributes) }
        let wanted = FeedNamespace(uri: FeedNamespace.wellKnownPrefixes[String(Substring(name.utf8[..<colon]))] ?? "")
        let local = Substring(name.utf8[name.utf8.index(after: colon)...])
        for attribute in attributes {
            guard let split = attribute.name.utf8.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let prefix = String(Substring(attribute.name.utf8[..<split]))
            guard prefix != "xmlns", Substring(attribute.name.utf8[attribute.name.utf8.index(after: split)...]) == local
            else { continue }
            let uri = namespaces[prefix]?.last?.uri ?? FeedNamespace.wellKnownPrefixes[prefix.lowercased()] ?? ""
            if FeedNamespace(uri: uri) == wanted { return attribute.value }
        }
        return nil
    }

    /// The value of the first unprefixed attribute named `name` (lowercase), in any case.
    static func value(_ name: String, in attributes: [XMLToken.Attribute]) -> String? {
        for attribute in attributes where attribute.name.utf8.count == name.utf8.count {
            if attribute.name == name || attribute.name.lowercased() == name { return attribute.value }
        }
        return nil
    }

    /// A picture's or a media file's `reference` made absolute against `base`: only an
    /// `http` or `https` URL with a host, at most `FeedHTML.maximumURLLength` bytes; `nil` for
    /// an empty reference, another scheme (`javascript:`, `data:`), or a relative one without a base.
    static func resolvePicture(_ reference: String, against base: URL?) -> String? {
        let trimmed = reference.trimmingXMLSpace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= FeedHTML.maximumURLLength,
            let resolved = resolve(trimmed, against: base), let url = URL(string: resolved)
        else { return nil }
        // The parsed form, as a browser reads it too (a `\` in an authority encoded).
        return FeedHTML.webAddress(url)
    }

    /// `reference` made absolute against `base`; `nil` for an empty reference.
    static func resolve(_ reference: String, against base: URL?) -> String? {
        let trimmed = reference.trimmingXMLSpace()
        guard let base else { return trimmed.isEmpty ? nil : trimmed }
        guard !trimmed.isEmpty else { return base.absoluteString }
        // An absolute http(s) URL needs no resolving, and parsing one costs more than the rest.
        if trimmed.utf8.starts(with: "http://".utf8) || trimmed.utf8.starts(with: "https://".utf8),
            !trimmed.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\") })
        {
            return trimmed
        }
        if let url = URL(string: trimmed, relativeTo: base) { return url.absoluteString }
        // Spaces are common in feeds and harmless once escaped; anything else that does not
        // parse (a bracket in a host name) is not a link.
        let escaped = trimmed.replacingOccurrences(of: " ", with: "%20")
        return URL(string: escaped, relativeTo: base)?.absoluteString
    }
}
