// libFuzzer harness: the XML tokenizer (Sources/CourierXML) and the feed parser (Sources/Feeds), with the JSON Feed
// path (Sources/Courier/JSON).
//
// The input is a document. It is parsed whole by FeedParser (as it comes, and as the
// Content-Type a byte of it picks), then it is decoded by FeedDecoder whole and in chunks of 1 to
// 64 bytes whose sizes come from the input, and its text is streamed through XMLTokenizer and
// FeedBuilder in such chunks. Checked: decoding in pieces gives the same text and problem, and
// streaming gives the same events (adjacent text joined) and the same feed as one piece.
import Foundation

private let contentTypes: [String?] = [
    nil, "application/atom+xml", "application/rss+xml; charset=iso-8859-1", "text/xml; charset=utf-16",
    "application/feed+json", "text/html; charset=windows-1252", "application/xml; charset=bogus",
]

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let data = Data(bytes)
    let limits = XMLLimits(maximumDepth: 64, maximumEntityExpansion: 1 << 16, maximumTokenSize: 1 << 16)
    let parser = FeedParser(limits: limits)
    let base = URL(string: "https://example.com/feeds/feed.xml")
    if let feed = try? parser.parse(data, baseURL: base) {
        for entry in feed.entries { _ = entry.safeContent }
    }
    // The sanitizer on the input as HTML: what it keeps holds no script (every `<` left starts
    // a kept tag), and is kept as it is when sanitized again.
    let safe = FeedHTML.sanitized(String(decoding: bytes, as: UTF8.self), base: base)
    precondition(!safe.lowercased().contains("<script"), "the sanitizer let a script through")
    precondition(FeedHTML.sanitized(safe, base: base) == safe, "sanitizing twice changed the HTML")
    // Every URL kept is http(s) with a host, or mailto. The tags are read as the sanitizer
    // writes them: text holds no raw `<`, and a value no raw `"` or `>`, so ` href="` inside a
    // value (`<summary type=" href=">`) is not an attribute.
    var rest = Substring(safe)
    while let open = rest.firstIndex(of: "<") {
        let close = rest[open...].firstIndex(of: ">") ?? rest.endIndex
        var tag = rest[rest.index(after: open)..<close]
        while let equals = tag.range(of: "=\"") {
            let name = tag[..<equals.lowerBound].split(separator: " ").last ?? ""
            let valueEnd = tag[equals.upperBound...].firstIndex(of: "\"") ?? tag.endIndex
            let value = tag[equals.upperBound..<valueEnd]
            if ["href", "src", "cite", "poster"].contains(name) {
                precondition(
                    value.hasPrefix("http://") || value.hasPrefix("https://") || value.hasPrefix("mailto:"),
                    "the sanitizer kept a URL that is not the web's"
                )
            }
            tag = valueEnd < tag.endIndex ? tag[tag.index(after: valueEnd)...] : ""
        }
        rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
    }
    // A long base, as a hostile xml:base gives one: still linear, and bounded.
    let longBase = URL(string: "https://example.com/" + String(repeating: "a", count: 9000) + "/")
    _ = FeedHTML.sanitized(String(decoding: bytes, as: UTF8.self), base: longBase)
    let contentType = contentTypes[Int(bytes.last ?? 0) % contentTypes.count]
    _ = try? parser.parse(data, baseURL: base, contentType: contentType)

    // Streaming against one piece: the decoder, then the tokenizer and the builder.
    let choice = FeedEncoding.choose(head: Array(bytes.prefix(4096)), contentType: contentType)
    var seed = UInt64(truncatingIfNeeded: count) &+ 0x9E37_79B9_7F4A_7C15
    for byte in bytes.prefix(16) { seed = seed &* 31 &+ UInt64(byte) }
    var sizes: [Int] = []
    for _ in 0..<32 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        sizes.append(Int(seed >> 33) % 64 + 1)
    }
    let text = decode(bytes, choice, chunkSizes: [max(1, bytes.count)])
    let cut = decode(bytes, choice, chunkSizes: sizes)
    precondition(text.utf8 == cut.utf8 && text.problem == cut.problem, "decoding in pieces changed the text")
    let whole = tokenize(text.utf8, limits: limits, chunkSizes: [max(1, text.utf8.count)])
    let streamed = tokenize(text.utf8, limits: limits, chunkSizes: sizes)
    guard let whole, let streamed else { return 0 }  // a limit ended one of them
    precondition(whole.events == streamed.events, "streaming changed the events")
    precondition(whole.feed == streamed.feed, "streaming changed the feed")
    return 0
}

struct Tokenized {
    var events: [XMLToken] = []
    var feed: Feed
}

/// The events of `text` fed `chunkSizes` at a time (cycling), adjacent text joined, and the
/// feed built from them; `nil` when a limit ended the parse.
func tokenize(_ text: [UInt8], limits: XMLLimits, chunkSizes: [Int]) -> Tokenized? {
    var tokenizer = XMLTokenizer(limits: limits)
    var builder = FeedBuilder(documentBase: URL(string: "https://example.com/feeds/feed.xml"))
    var events: [XMLToken] = []
    let emit = { (event: XMLToken) throws(XMLError) in
        builder.handle(event)
        if case .text(let more) = event, case .text(let before)? = events.last {
            events[events.count - 1] = .text(before + more)
        } else {
            events.append(event)
        }
    }
    var offset = 0
    var turn = 0
    do {
        while offset < text.count {
            let end = min(text.count, offset + chunkSizes[turn % chunkSizes.count])
            turn += 1
            try tokenizer.feed(text[offset..<end], emit: emit)
            offset = end
        }
        try tokenizer.finish(emit: emit)
    } catch {
        return nil
    }
    return Tokenized(events: events, feed: builder.finish())
}

/// `bytes` decoded in pieces of `chunkSizes` (cycling): the UTF-8 and the problem found.
func decode(_ bytes: [UInt8], _ choice: FeedEncoding.Choice, chunkSizes: [Int]) -> (utf8: [UInt8], problem: String?) {
    var decoder = FeedDecoder(choice)
    var utf8: [UInt8] = []
    var offset = 0
    var turn = 0
    bytes.withUnsafeBufferPointer { buffer in
        while offset < buffer.count {
            let end = min(buffer.count, offset + chunkSizes[turn % chunkSizes.count])
            turn += 1
            decoder.decode(UnsafeBufferPointer(rebasing: buffer[offset..<end])) { utf8.append(contentsOf: $0) }
            offset = end
        }
    }
    decoder.finish { utf8.append(contentsOf: $0) }
    return (utf8, decoder.problem)
}
