// libFuzzer harness: the public XML reader (Sources/CourierXML) — XMLEventReader and
// XMLPathReader.
//
// The input is a document. It is read whole and in chunks of 1 to 64 bytes whose sizes come
// from the input. Checked: the events are the same however the bytes are cut (adjacent text
// joined), every start has its end in order, and the path reader finds as many element
// matches in pieces as whole.
import Foundation

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let limits = XMLLimits(maximumDepth: 64, maximumEntityExpansion: 1 << 16, maximumTokenSize: 1 << 16)
    var seed = UInt64(truncatingIfNeeded: count) &+ 0x9E37_79B9_7F4A_7C15
    for byte in bytes.prefix(16) { seed = seed &* 31 &+ UInt64(byte) }
    var sizes: [Int] = []
    for _ in 0..<32 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        sizes.append(Int(seed >> 33) % 64 + 1)
    }
    let whole = events(bytes, limits: limits, chunkSizes: [max(1, bytes.count)])
    let cut = events(bytes, limits: limits, chunkSizes: sizes)
    if let whole, let cut { precondition(whole == cut, "reading in pieces changed the events") }
    if let whole {
        var open: [XMLName] = []
        for event in whole {
            switch event {
            case .startElement(let name, _): open.append(name)
            case .endElement(let name): precondition(open.popLast() == name, "an end without its start")
            default: break
            }
        }
        precondition(open.isEmpty, "a start without its end")
    }
    let paths = ["a", "/a/b", "*/@x", "b/*", "x:c"]
    let wholeMatches = try? XMLPathReader.matches(paths, in: bytes, namespaces: ["x": "urn:x"], limits: limits)
    if let wholeMatches, var reader = try? XMLPathReader(paths, namespaces: ["x": "urn:x"], limits: limits) {
        var matches: [XMLPathReader.Match] = []
        var offset = 0
        var turn = 0
        do {
            while offset < bytes.count {
                let end = min(bytes.count, offset + sizes[turn % sizes.count])
                turn += 1
                try reader.read(bytes[offset..<end]) { matches.append($0) }
                offset = end
            }
            try reader.finish { matches.append($0) }
            precondition(matches.count == wholeMatches.count, "reading in pieces changed the matches")
        } catch {}
    }
    return 0
}

/// The events of `bytes` fed `chunkSizes` at a time (cycling), adjacent text joined; `nil` when
/// a limit ended the reading.
func events(_ bytes: [UInt8], limits: XMLLimits, chunkSizes: [Int]) -> [XMLEvent]? {
    var reader = XMLEventReader(limits: limits)
    var events: [XMLEvent] = []
    let collect = { (event: XMLEvent) in
        if case .text(let more) = event, case .text(let before)? = events.last {
            events[events.count - 1] = .text(before + more)
        } else {
            events.append(event)
        }
    }
    var offset = 0
    var turn = 0
    do {
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSizes[turn % chunkSizes.count])
            turn += 1
            try reader.read(bytes[offset..<end], collect)
            offset = end
        }
        try reader.finish(collect)
    } catch {
        return nil
    }
    return events
}
