import Feeds
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Feed parsing for Benchmarks/compare/feeds:
///
///     feed-bench stream FILE   Courier's FeedParser, entries streamed from 64 KiB reads
///     feed-bench tree FILE     the baseline: XMLParser (libxml2) builds the whole document tree, then
///                              entries are read from it (as FeedKit-style parsers do)
///     feed-bench scale         hostile documents of 1 to 8 MB: time per size, ratio per doubling
///
/// Prints the number of entries and the characters of all titles (so no work is skipped).
let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "scale" {
    await Scaling.run()
    exit(0)
}
guard arguments.count == 3, let handle = FileHandle(forReadingAtPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: feed-bench stream|tree FILE\n".utf8))
    exit(2)
}

/// The file in 64 KiB chunks, read as they are asked for.
struct FileChunks: AsyncSequence {
    typealias Element = Data
    let handle: FileHandle
    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle
        mutating func next() async -> Data? {
            let data = handle.readData(ofLength: 1 << 16)
            return data.isEmpty ? nil : data
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: handle) }
}

/// One element of the baseline's tree.
final class Node {
    let name: String
    var children: [Node] = []
    var text = ""
    init(name: String) { self.name = name }
}

/// Builds the whole tree with XMLParser's callbacks.
final class TreeBuilder: NSObject, XMLParserDelegate {
    let root = Node(name: "#document")
    private var stack: [Node] = []

    override init() {
        super.init()
        stack = [root]
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let node = Node(name: elementName)
        stack.last?.children.append(node)
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }
}

switch arguments[1] {
case "stream":
    var count = 0
    var characters = 0
    for try await entry in FeedParser().entries(in: FileChunks(handle: handle)) {
        count += 1
        characters += entry.title?.count ?? 0
    }
    print("\(count) entries, \(characters) title characters")
case "tree":
    // A stream, because XMLParser(data:) refuses documents over 10 MB on Linux (libxml2's limit).
    guard let stream = InputStream(fileAtPath: arguments[2]) else { exit(2) }
    let parser = XMLParser(stream: stream)
    let builder = TreeBuilder()
    parser.delegate = builder
    guard parser.parse() else {
        print("XMLParser failed: \(parser.parserError.map(String.init(describing:)) ?? "?")")
        exit(1)
    }
    func items(_ node: Node) -> [Node] {
        node.name == "item" ? [node] : node.children.flatMap(items)
    }
    let entries = items(builder.root)
    let characters = entries.reduce(0) { total, item in
        total
            + (item.children.first { $0.name == "title" }?.text.trimmingCharacters(in: .whitespacesAndNewlines).count
                ?? 0)
    }
    print("\(entries.count) entries, \(characters) title characters")
default:
    FileHandle.standardError.write(Data("usage: feed-bench stream|tree FILE\n".utf8))
    exit(2)
}
