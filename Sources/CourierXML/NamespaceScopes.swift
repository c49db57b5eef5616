/// The namespace bindings in scope: for each prefix, the URIs declared by the open elements,
/// innermost last; `""` for the default namespace.
struct NamespaceScopes: Sendable {
    private var bindings: [String: [String]] = [:]
    /// For each open element, the prefixes it declared.
    private var declared: [[String]] = []
    /// The bytes of the prefixes and URIs in scope.
    private var bytes = 0

    /// Opens an element's scope with the declarations among its `attributes`; returns whether
    /// it declared any.
    ///
    /// - Throws: ``XMLError/limitExceeded(_:)`` when the namespaces in scope would hold more
    ///   than `budget` bytes.
    mutating func enter(
        _ attributes: [XMLToken.Attribute],
        budget: Int
    ) throws(XMLError) -> (declared: Bool, problem: String?) {
        var prefixes: [String] = []
        var problem: String?
        for attribute in attributes {
            let name = attribute.name
            // Most attributes declare nothing: one byte says so.
            guard name.utf8.first == UInt8(ascii: "x") else { continue }
            let prefix: String
            if name == "xmlns" {
                prefix = ""
            } else if name.utf8.starts(with: "xmlns:".utf8) {
                prefix = String(Substring(name.utf8.dropFirst(6)))
                // Namespaces 1.0: a prefix is a name, is never undeclared, and `xml` and
                // `xmlns` keep their own namespaces.
                let reserved =
                    prefix == "xmlns" || (prefix == "xml") != (attribute.value == XMLName.xmlNamespace)
                    || attribute.value == XMLName.xmlnsNamespace
                if prefix.isEmpty || attribute.value.isEmpty || reserved {
                    problem = problem ?? "the namespace declaration \(name)=\"\(attribute.value)\" is not allowed"
                    continue
                }
            } else {
                continue
            }
            bytes += prefix.utf8.count + attribute.value.utf8.count
            if bytes > budget { throw .limitExceeded(.tokenSize(budget)) }
            bindings[prefix, default: []].append(attribute.value)
            prefixes.append(prefix)
        }
        declared.append(prefixes)
        return (!prefixes.isEmpty, problem)
    }

    /// Closes the innermost element's scope; returns whether it had declared anything.
    mutating func leave() -> Bool {
        guard let prefixes = declared.popLast() else { return false }
        for prefix in prefixes {
            if let uri = bindings[prefix]?.popLast() { bytes -= prefix.utf8.count + uri.utf8.count }
            if bindings[prefix]?.isEmpty == true { bindings[prefix] = nil }
        }
        return !prefixes.isEmpty
    }

    /// The namespace `prefix` is bound to now; `nil` when it is not bound, or (for the default
    /// namespace) bound to nothing with `xmlns=""`.
    func uri(for prefix: String) -> String? {
        guard let uri = bindings[prefix]?.last, !uri.isEmpty else { return nil }
        return uri
    }
}
