import CourierXML
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The same work three ways, for Benchmarks/compare/xml/run.sh: every element's start and end
/// (namespaces resolved) and every byte of text (UTF-8), counted, from a file read in 64 KiB
/// pieces.
///
///     xml-bench events FILE       Courier's XMLEventReader
///     xml-bench paths FILE PATH   Courier's XMLPathReader, the values at PATH
///     xml-bench foundation FILE   Foundation's XMLParser (libxml2), namespaces on, from a stream
///     xml-bench foundation-paths FILE NAME
///                                 XMLParser collecting the text of elements named NAME
///
/// Each prints what it counted, so the runs can be compared.
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: xml-bench events|paths|foundation|foundation-paths FILE [PATH]\n".utf8))
    exit(2)
}

/// The file in 64 KiB pieces.
func pieces(_ path: String, _ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
    guard let handle = FileHandle(forReadingAtPath: path) else { exit(2) }
    defer { try? handle.close() }
    while let data = try? handle.read(upToCount: 1 << 16), !data.isEmpty {
        try body(ArraySlice(data))
    }
}

/// Counts elements and characters through a delegate, as the parsing chapter does.
final class Counter: NSObject, XMLParserDelegate {
    var elements = 0
    var characters = 0
    var wanted: String?
    var collecting = false
    var values: [String] = []
    var value = ""

    func parser(
        _ parser: XMLParser,
        didStartElement name: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements += 1
        if name == wanted {
            collecting = true
            value = ""
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == wanted, collecting {
            values.append(value)
            collecting = false
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        characters += string.utf8.count
        if collecting { value += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        let string = String(decoding: block, as: UTF8.self)
        characters += string.utf8.count
        if collecting { value += string }
    }
}

switch arguments[1] {
case "events":
    var reader = XMLEventReader()
    var elements = 0
    var characters = 0
    let count = { (event: XMLEvent) in
        switch event {
        case .startElement: elements += 1
        case .text(let text), .cdata(let text): characters += text.utf8.count
        default: break
        }
    }
    do {
        try pieces(arguments[2]) { try reader.read($0, count) }
        try reader.finish(count)
    } catch {
        print("failed: \(error)")
        exit(1)
    }
    print("\(elements) elements, \(characters) bytes of text")
case "paths" where arguments.count >= 4:
    do {
        var reader = try XMLPathReader([arguments[3]])
        var values = 0
        var characters = 0
        let take = { (match: XMLPathReader.Match) in
            values += 1
            characters += match.value.utf8.count
        }
        try pieces(arguments[2]) { try reader.read($0, take) }
        try reader.finish(take)
        print("\(values) values, \(characters) bytes of text")
    } catch {
        print("failed: \(error)")
        exit(1)
    }
case "foundation", "foundation-paths":
    // A stream, because XMLParser(data:) refuses documents over 10 MB on Linux (libxml2's limit).
    guard let stream = InputStream(fileAtPath: arguments[2]) else { exit(2) }
    let parser = XMLParser(stream: stream)
    parser.shouldProcessNamespaces = true
    let counter = Counter()
    if arguments[1] == "foundation-paths", arguments.count >= 4 { counter.wanted = arguments[3] }
    parser.delegate = counter
    guard parser.parse() else {
        print("XMLParser failed: \(parser.parserError.map(String.init(describing:)) ?? "?")")
        exit(1)
    }
    if counter.wanted != nil {
        print("\(counter.values.count) values, \(counter.values.reduce(0) { $0 + $1.utf8.count }) bytes of text")
    } else {
        print("\(counter.elements) elements, \(counter.characters) bytes of text")
    }
default:
    FileHandle.standardError.write(Data("usage: xml-bench events|paths|foundation|foundation-paths FILE [PATH]\n".utf8))
    exit(2)
}
