import Courier
import CourierXML
import Foundation

/// The samples of the `CourierXML` module (its `///` examples and its DocC catalog), each in
/// the context it takes for granted. Nothing calls them: the build compiles them.
enum CourierXMLSamples {
    /// Uses a value a sample leaves for the code after it.
    static func keep<Value>(_ value: Value) {}

    // MARK: - CourierXML.docc/CourierXML.md

    static func overview(data: Data) throws {
        let matches = try XMLPathReader.matches(["item/title", "item/enclosure/@url"], in: data)
        for match in matches { print(match.path, match.value) }
    }

    // MARK: - CourierXML.docc/ReadingXML.md

    static func events(data: Data) throws {
        var reader = XMLEventReader()
        var titles: [String] = []
        var title: String?
        let collect = { (event: XMLEvent) in
            switch event {
            case .startElement(let name, _) where name.localName == "title": title = ""
            case .text(let text): title? += text
            case .endElement(let name) where name.localName == "title":
                if let done = title { titles.append(done) }
                title = nil
            default: break
            }
        }
        try reader.read(data, collect)
        try reader.finish(collect)
        keep(titles)
    }

    static func paths(data: Data) throws {
        let atom = ["atom": "http://www.w3.org/2005/Atom"]
        var reader = try XMLPathReader(["/atom:feed/atom:entry/atom:title"], namespaces: atom)
        try reader.read(data) { print($0.value) }
        try reader.finish { print($0.value) }
    }

    // MARK: - XMLEventReader.swift

    static func eventReader(client: HTTPClient, feedURL: URL) async throws {
        let response = try await client.stream(Endpoint<Data>(url: feedURL))
        var reader = XMLEventReader()
        let show = { (event: XMLEvent) in
            if case .startElement(let name, let attributes) = event, name.localName == "enclosure" {
                print(attributes.value(of: "url") ?? "")
            }
        }
        for try await chunk in response.body {
            try reader.read(chunk, show)
        }
        try reader.finish(show)
    }

    // MARK: - XMLPathReader.swift

    static func pathReader(data: Data) throws {
        var titles = try XMLPathReader(["rss/channel/item/title", "item/enclosure/@url"])
        try titles.read(data) { match in print(match.path, match.value) }
        try titles.finish { match in print(match.path, match.value) }
    }

    // MARK: - XMLLimits.swift

    static func limits() {
        var reader = XMLEventReader(limits: XMLLimits(maximumDepth: 64, maximumDocumentSize: 8 << 20))
        keep(reader)
        reader = XMLEventReader()
    }

    // MARK: - XMLError.swift

    static func error(reader: inout XMLEventReader, bytes: [UInt8]) {
        do throws(XMLError) {
            try reader.read(bytes) { event in print(event) }
        } catch .limitExceeded(.depth(let levels)) {
            print("nested deeper than \(levels) levels")
        } catch {
            print(error.message)
        }
    }
}
