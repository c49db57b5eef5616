import CourierTestTraits
import CourierXML
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `XMLEventReader`: events with namespaces resolved, the same however the bytes are cut,
/// and hostile documents stopped at their limits (issue 32).
@Suite(.loadLimited)
struct XMLEventReaderTests {
    static let atom = "http://www.w3.org/2005/Atom"
    static let media = "http://search.yahoo.com/mrss/"

    static let document = """
        \u{FEFF}<?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE feed [<!ENTITY who "Ada &amp; Co">]>
        <?xml-stylesheet href="feed.xsl"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:m="http://search.yahoo.com/mrss/" xml:lang="en">
          <!-- the newest first -->
          <title type="text">&who; &#x263A;</title>
          <entry><m:thumbnail url="a.jpg" m:width="60"/><content><![CDATA[<p>hi</p>]]></content></entry>
          <x:odd xmlns:x="urn:x" plain="1"/>
        </feed>
        """

    static func events(_ text: String, limits: XMLLimits = XMLLimits()) throws -> [XMLEvent] {
        try XMLEventReader.events(in: Array(text.utf8), limits: limits)
    }

    /// The events without the white space between elements.
    static func significant(_ events: [XMLEvent]) -> [XMLEvent] {
        events.filter { if case .text(let text) = $0 { !text.allSatisfy(\.isWhitespace) } else { true } }
    }

    @Test func namesAreResolvedAndEveryKindOfEventIsReported() throws {
        let events = Self.significant(try Self.events(Self.document))
        let feed = XMLName(namespaceURI: Self.atom, localName: "feed")
        let title = XMLName(namespaceURI: Self.atom, localName: "title")
        let thumbnail = XMLName(namespaceURI: Self.media, localName: "thumbnail", prefix: "m")
        let odd = XMLName(namespaceURI: "urn:x", localName: "odd", prefix: "x")
        #expect(
            events == [
                .processingInstruction(target: "xml-stylesheet", data: #"href="feed.xsl""#),
                .startElement(
                    feed,
                    attributes: [
                        XMLAttribute(
                            name: XMLName(namespaceURI: XMLName.xmlnsNamespace, localName: "xmlns"),
                            value: Self.atom
                        ),
                        XMLAttribute(
                            name: XMLName(namespaceURI: XMLName.xmlnsNamespace, localName: "m", prefix: "xmlns"),
                            value: Self.media
                        ),
                        XMLAttribute(
                            name: XMLName(namespaceURI: XMLName.xmlNamespace, localName: "lang", prefix: "xml"),
                            value: "en"
                        ),
                    ]
                ),
                .comment(" the newest first "),
                .startElement(title, attributes: [XMLAttribute(name: XMLName(localName: "type"), value: "text")]),
                .text("Ada & Co ☺"),
                .endElement(title),
                .startElement(XMLName(namespaceURI: Self.atom, localName: "entry"), attributes: []),
                .startElement(
                    thumbnail,
                    attributes: [
                        XMLAttribute(name: XMLName(localName: "url"), value: "a.jpg"),
                        XMLAttribute(
                            name: XMLName(namespaceURI: Self.media, localName: "width", prefix: "m"),
                            value: "60"
                        ),
                    ]
                ),
                .endElement(thumbnail),
                .startElement(XMLName(namespaceURI: Self.atom, localName: "content"), attributes: []),
                .cdata("<p>hi</p>"),
                .endElement(XMLName(namespaceURI: Self.atom, localName: "content")),
                .endElement(XMLName(namespaceURI: Self.atom, localName: "entry")),
                .startElement(
                    odd,
                    attributes: [
                        XMLAttribute(
                            name: XMLName(namespaceURI: XMLName.xmlnsNamespace, localName: "x", prefix: "xmlns"),
                            value: "urn:x"
                        ),
                        XMLAttribute(name: XMLName(localName: "plain"), value: "1"),
                    ]
                ),
                .endElement(odd),
                .endElement(feed),
            ]
        )
        #expect(feed.description == "{\(Self.atom)}feed" && odd.qualifiedName == "x:odd")
    }

    /// Every way of cutting the document gives the same events, a byte order mark split too.
    @Test func theEventsDoNotDependOnHowTheBytesArrive() throws {
        let bytes = Array(Self.document.utf8)
        let whole = try Self.events(Self.document)
        for size in [1, 2, 3, 7, 64] {
            var reader = XMLEventReader()
            var events: [XMLEvent] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + size)
                try reader.read(bytes[start..<end]) { events.append($0) }
                start = end
            }
            try reader.finish { events.append($0) }
            #expect(events == whole, "in pieces of \(size)")
            #expect(reader.isWellFormed, "\(reader.firstProblem ?? "")")
        }
    }

    @Test func scopesEndWithTheirElementsAndAnUndeclaredPrefixIsAProblem() throws {
        let events = Self.significant(
            try Self.events(
                #"<a xmlns:p="urn:1"><p:b xmlns:p="urn:2"/><p:c/><d xmlns="urn:3"><e xmlns=""/></d><q:f/></a>"#
            )
        )
        let names = events.compactMap { if case .startElement(let name, _) = $0 { name } else { nil } }
        #expect(names.map(\.namespaceURI) == [nil, "urn:2", "urn:1", "urn:3", nil, nil])
        var reader = XMLEventReader()
        try reader.read(Array("<q:f/>".utf8)) { _ in }
        try reader.finish { _ in }
        #expect(!reader.isWellFormed)
        #expect(reader.firstProblem == "the prefix q is not declared")
    }

    /// Ill-formed documents are read leniently, with every start paired with an end.
    @Test(arguments: ["<a><b></a>", "<a><b>text", "<a></b></a>", "<a x='1' x='2'>&bogus; & <</a>", "<a><!-- open"])
    func illFormedDocumentsStillPairTheirElements(text: String) throws {
        var reader = XMLEventReader()
        var depth = 0
        var deepest = 0
        let count = { (event: XMLEvent) in
            switch event {
            case .startElement: depth += 1
            case .endElement: depth -= 1
            default: break
            }
            deepest = max(deepest, depth)
            #expect(depth >= 0)
        }
        try reader.read(Array(text.utf8), count)
        try reader.finish(count)
        #expect(depth == 0 && deepest >= 1)
        #expect(!reader.isWellFormed)
    }

    /// Documents that are well-formed XML but not namespace-well-formed, or not well-formed in
    /// ways a lenient reader passes over (issue 32, from an outside review).
    @Test(arguments: [
        (#"<a xmlns:p=""><p:b/></a>"#, #"the namespace declaration xmlns:p="" is not allowed"#),
        (#"<a xmlns:="urn:x"/>"#, #"the namespace declaration xmlns:="urn:x" is not allowed"#),
        (#"<a xmlns:xml="urn:x"/>"#, #"the namespace declaration xmlns:xml="urn:x" is not allowed"#),
        (#"<a :b="1"/>"#, "the name :b is not a qualified name"),
        (#"<a x:b:c="1" xmlns:x="u"/>"#, "the name x:b:c is not a qualified name"),
        (#"<x xmlns:a="u" xmlns:b="u" a:k="1" b:k="2"/>"#, "the attribute {u}k appears twice"),
        (#"<a ="v"/>"#, "an attribute value without a name"),
        (
            #"<!DOCTYPE a><!DOCTYPE b [<!ENTITY e "x">]><a>&e;</a>"#,
            "a document type declaration after the first or after the root element"
        ),
    ])
    func namespaceAndSyntaxProblemsAreReported(document: String, problem: String) throws {
        var reader = XMLEventReader()
        try reader.read(Array(document.utf8)) { _ in }
        try reader.finish { _ in }
        #expect(!reader.isWellFormed)
        #expect(reader.firstProblem == problem)
    }

    @Test func aCharacterReferenceInAnAttributeKeepsItsCharacter() throws {
        let events = try Self.events("<a v=\"1&#10;2\n3\t4&#9;\"/>")
        guard case .startElement(_, let attributes)? = events.first else {
            Issue.record("no start")
            return
        }
        #expect(attributes.value(of: "v") == "1\n2 3 4\t")
    }

    @Test func aLimitOnceReachedIsThrownAgain() throws {
        var reader = XMLEventReader(limits: XMLLimits(maximumDepth: 2))
        #expect(throws: XMLError.limitExceeded(.depth(2))) { try reader.read(Array("<a><b><c>".utf8)) { _ in } }
        #expect(throws: XMLError.limitExceeded(.depth(2))) { try reader.read(Array("</c></b></a>".utf8)) { _ in } }
        #expect(throws: XMLError.limitExceeded(.depth(2))) { try reader.finish { _ in } }
    }

    // MARK: - Hostile documents

    @Test func aBillionLaughsStopsAtTheExpansionLimit() throws {
        var entities = #"<!ENTITY l0 "lol">"#
        for level in 1...6 { entities += "<!ENTITY l\(level) \"\(String(repeating: "&l\(level - 1);", count: 10))\">" }
        let document = "<!DOCTYPE a [\(entities)]><a>&l6;</a>"
        #expect(throws: XMLError.limitExceeded(.entityExpansion(1 << 20))) { try Self.events(document) }
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let document = #"<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>[&x;]</a>"#
        var reader = XMLEventReader()
        var text = ""
        try reader.read(Array(document.utf8)) { if case .text(let part) = $0 { text += part } }
        try reader.finish { _ in }
        #expect(text == "[]")
        #expect(reader.firstProblem == "the external entity &x; is not loaded")
    }

    @Test func nestingPastTheLimitIsRefused() throws {
        let document = String(repeating: "<a>", count: 300)
        #expect(throws: XMLError.limitExceeded(.depth(256))) { try Self.events(document) }
    }

    @Test func namespacesInScopeCountAsAToken() throws {
        let declarations = (0..<200).map { " xmlns:p\($0)=\"urn:\(String(repeating: "x", count: 100))\"" }.joined()
        let document = String(repeating: "<a\(declarations)>", count: 50)
        #expect(throws: XMLError.limitExceeded(.tokenSize(64 << 10))) {
            try Self.events(document, limits: XMLLimits(maximumTokenSize: 64 << 10))
        }
    }

    @Test func theDocumentSizeIsCountedAsItArrives() throws {
        var reader = XMLEventReader(limits: XMLLimits(maximumDocumentSize: 100))
        try reader.read(Array(repeating: UInt8(ascii: " "), count: 60)) { _ in }
        #expect(throws: XMLError.limitExceeded(.documentSize(100))) {
            try reader.read(Array(repeating: UInt8(ascii: " "), count: 60)) { _ in }
        }
        #expect(XMLError.limitExceeded(.documentSize(100)).message.contains("XMLLimits.maximumDocumentSize"))
    }

    // MARK: - Foundation's XMLParser agrees

    #if canImport(FoundationXML)
    /// The same elements, namespaces and text as Foundation's `XMLParser` (with namespaces on)
    /// on well-formed documents.
    @Test(arguments: [
        // Foundation drops the text before an internal entity's (a quirk of its own): none here.
        Self.document.replacingOccurrences(of: "\u{FEFF}", with: "").replacingOccurrences(
            of: "&who;",
            with: "Ada &amp; Co"
        ),
        "<rss version='2.0'><channel><item><title>A &lt; B</title><description><![CDATA[x]]>y</description></item></channel></rss>",
        "<r xmlns:a='urn:a'><a:x a:y='1'>é 東京 &#128512;</a:x><y/></r>",
    ])
    func foundationsParserSeesTheSame(document: String) throws {
        let ours = try Self.events(document).compactMap { event -> String? in
            switch event {
            case .startElement(let name, _): "start \(name)"
            case .endElement(let name): "end \(name)"
            case .text(let text), .cdata(let text): text.allSatisfy(\.isWhitespace) ? nil : "text \(text)"
            default: nil
            }
        }
        #expect(Self.foundationEvents(document) == Self.joiningText(ours))
    }

    static func joiningText(_ events: [String]) -> [String] {
        var joined: [String] = []
        for event in events {
            if event.hasPrefix("text "), let last = joined.last, last.hasPrefix("text ") {
                joined[joined.count - 1] = last + event.dropFirst(5)
            } else {
                joined.append(event)
            }
        }
        return joined
    }

    static func foundationEvents(_ document: String) -> [String] {
        final class Delegate: NSObject, XMLParserDelegate {
            var events: [String] = []
            func parser(
                _ parser: XMLParser,
                didStartElement name: String,
                namespaceURI: String?,
                qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                events.append("start " + Self.clark(name, namespaceURI))
            }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?)
            {
                events.append("end " + Self.clark(name, namespaceURI))
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text(string) }
            func parser(_ parser: XMLParser, foundCDATA block: Data) { text(String(decoding: block, as: UTF8.self)) }
            func text(_ string: String) {
                if let last = events.last, last.hasPrefix("text ") {
                    events[events.count - 1] = last + string
                } else if !string.allSatisfy(\.isWhitespace) {
                    events.append("text " + string)
                }
            }
            static func clark(_ name: String, _ uri: String?) -> String {
                guard let uri, !uri.isEmpty else { return name }
                return "{\(uri)}\(name)"
            }
        }
        let parser = XMLParser(data: Data(document.utf8))
        parser.shouldProcessNamespaces = true
        let delegate = Delegate()
        parser.delegate = delegate
        _ = parser.parse()
        return delegate.events
    }
    #endif
}
