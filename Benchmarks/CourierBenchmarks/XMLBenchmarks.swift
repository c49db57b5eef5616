import Benchmark
import CourierXML
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reading 1 MB of attribute-heavy, namespaced XML: Courier's event reader and path reader
/// against Foundation's `XMLParser` with namespaces on, each counting the same elements. The
/// system comparison on 50 MB files is `Benchmarks/compare/xml/run.sh`.
func xmlBenchmarks() {
    var document = #"<osm:osm xmlns:osm="urn:example:osm" xmlns:geo="urn:example:geo">"#
    var index = 0
    while document.utf8.count < 1_000_000 {
        index += 1
        document += #"<osm:node id="\#(index)" geo:lat="48.1" geo:lon="2.3" user="mapper\#(index % 50)">"#
        document += #"<osm:tag k="name" v="Rue &amp; \#(index)"/><osm:tag k="amenity" v="library"/></osm:node>"#
    }
    document += "</osm:osm>"
    let bytes = Array(document.utf8)
    let data = Data(bytes)

    Benchmark(
        "XML: XMLEventReader, 1 MB attribute-heavy",
        configuration: .init(metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var reader = XMLEventReader()
            var elements = 0
            let count = { (event: XMLEvent) in if case .startElement = event { elements += 1 } }
            try? reader.read(bytes, count)
            try? reader.finish(count)
            blackHole(elements)
        }
    }

    Benchmark(
        "XML: XMLPathReader tag/@v, 1 MB attribute-heavy",
        configuration: .init(metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole((try? XMLPathReader.matches(["tag/@v"], in: bytes))?.count)
        }
    }

    #if canImport(FoundationXML)
    final class Counter: NSObject, XMLParserDelegate {
        var elements = 0
        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements += 1
        }
    }

    Benchmark(
        "XML: Foundation XMLParser (namespaces on), 1 MB attribute-heavy",
        configuration: .init(metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let parser = XMLParser(data: data)
            parser.shouldProcessNamespaces = true
            let counter = Counter()
            parser.delegate = counter
            _ = parser.parse()
            blackHole(counter.elements)
        }
    }
    #endif
}
