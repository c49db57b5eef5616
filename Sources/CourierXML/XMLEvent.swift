/// What an ``XMLEventReader`` finds in a document, in order.
///
/// Character data may arrive as several `text` and `cdata` events in one element (around a
/// comment or a CDATA section): join them if you need the whole text. Start and end events always pair, even in a document that is not well-formed.
public enum XMLEvent: Sendable, Hashable {
    /// `<name attribute="value">`, or `<name/>` (then followed at once by its end).
    case startElement(XMLName, attributes: [XMLAttribute])
    /// `</name>`, or the end of an empty element.
    case endElement(XMLName)
    /// Character data, with references decoded.
    case text(String)
    /// The content of a `<![CDATA[…]]>` section.
    case cdata(String)
    /// The text of a `<!-- comment -->`.
    case comment(String)
    /// `<?target data?>` (the XML declaration, `<?xml …?>`, is not one).
    case processingInstruction(target: String, data: String)
}

/// An element's or attribute's name: the namespace it is in, its local name, and the prefix
/// the document wrote. Equality compares the prefix too: compare ``namespaceURI`` and
/// ``localName`` (or ``description``) to ask whether two names are the same name.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The namespace, resolved from the prefix (or the default namespace, for an element);
    /// `nil` for none.
    public var namespaceURI: String?
    /// The name without its prefix.
    public var localName: String
    /// The prefix as written, if any.
    public var prefix: String?

    /// A name.
    public init(namespaceURI: String? = nil, localName: String, prefix: String? = nil) {
        self.namespaceURI = namespaceURI
        self.localName = localName
        self.prefix = prefix
    }

    /// `prefix:localName`, or `localName`: the name as written.
    public var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }

    /// `{namespace}localName`, or `localName` with no namespace (Clark notation).
    public var description: String { namespaceURI.map { "{\($0)}\(localName)" } ?? localName }

    /// The namespace of `xml:lang`, `xml:base` and `xml:space`, bound in every document.
    public static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    /// The namespace of `xmlns` and `xmlns:prefix` attributes, which declare namespaces.
    public static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
}

/// An attribute of a start tag: its name and its value, references decoded and white space
/// normalized as XML requires.
public struct XMLAttribute: Sendable, Hashable {
    /// The attribute's name. An unprefixed attribute is in no namespace; `xmlns` and
    /// `xmlns:prefix` are in ``XMLName/xmlnsNamespace``.
    public var name: XMLName
    /// The value.
    public var value: String

    /// An attribute.
    public init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}

extension [XMLAttribute] {
    /// The value of the attribute with `localName` in `namespaceURI` (none by default).
    public func value(of localName: String, namespaceURI: String? = nil) -> String? {
        first { $0.name.localName == localName && $0.name.namespaceURI == namespaceURI }?.value
    }
}
